package dev.redrive.core.operator;

import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayOutcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a person can do with the dead-letter workflow, whatever the interface (the CLI, the local run's scripted
 * operator): look, approve replays, archive with a note, manage maintenance windows. Approvals run the same checks as
 * the sweeper's replays; every decision is attributed to the person.
 */
public interface OperatorPort {

    /** Dead letters matching {@code query}, oldest first. */
    List<QuarantineRecord> list(QuarantineQuery query);

    /** One dead letter, with its audit trail. */
    Optional<QuarantineRecord> show(String quarantineId);

    /** Approves replaying these dead letters (or, with {@code dryRun}, says what would happen to each). */
    Map<String, ReplayOutcome> approveReplay(List<String> quarantineIds, Actor person, String reason, boolean dryRun);

    /** Archives these dead letters with a note instead of replaying them. */
    Map<String, ArchiveDecision.Outcome> archive(List<String> quarantineIds, Actor person, String note, boolean dryRun);

    /** Opens a maintenance window, approved by {@code person}. */
    MaintenanceWindow addWindow(MaintenanceWindow window);

    List<MaintenanceWindow> windows();

    boolean removeWindow(String id);
}
