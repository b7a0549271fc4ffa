package dev.redrive.core.operator;

import dev.redrive.core.replay.EditCheck;
import dev.redrive.core.replay.ReplayOutcome;
import java.util.Optional;

/**
 * What a person's edited replay did (or, in a dry run, would do), with what the edit's checks answered.
 *
 * @param outcome what happened: {@link ReplayOutcome.Rejected} when the edit was refused (nothing changed), else the
 *                outcome of the replay, as any replay's
 * @param checks  the schema and key checks of the edit and its diff from the original; empty when the dead letter
 *                was not found, is resolved already, or its checks could not be run
 */
public record EditedReplay(ReplayOutcome outcome, Optional<EditCheck> checks) {}
