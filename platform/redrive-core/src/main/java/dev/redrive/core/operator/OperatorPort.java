package dev.redrive.core.operator;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a person can do with the dead-letter workflow, whatever the interface (the {@code redrive} CLI, the local run's
 * scripted operator, a future UI): look, approve replays, archive with a note, manage maintenance windows, read the
 * figures. Every rule lives behind it: approvals run the same checks as the sweeper's replays, every decision is
 * attributed to the person, and the replay statistics are recorded here, never by the caller.
 */
public interface OperatorPort {

    /** Dead letters matching {@code query}, oldest first; the port picks the ledger's index for the query. */
    List<QuarantineRecord> list(QuarantineQuery query);

    /** One dead letter, with its audit trail. */
    Optional<QuarantineRecord> show(String quarantineId);

    /** The payload of {@code record}, inline or kept aside; empty once archived to the store (a tombstone). */
    Optional<String> payload(QuarantineRecord record);

    /**
     * Records in {@code quarantineId}'s audit trail that {@code person} was shown its payload's sensitive fields: an
     * entry of action {@link dev.redrive.core.quarantine.AuditEntry.Action#PAYLOAD_REVEALED} naming the person and the
     * fields, its state unchanged. Whoever shows a payload unredacted (the CLI's {@code show --reveal}, the console's
     * reveal) calls this, so every reveal is in the trail the same way. A reveal is no state change: retention still
     * counts from the last one. Written on the record's version like every operator write, read again and retried when
     * the record changed meanwhile.
     *
     * @param sensitivePaths the fields revealed ({@code $.customer.email}; {@code $} for a payload withheld whole),
     *     empty when none in it is marked sensitive
     * @return the record as stored, with the entry
     * @throws IllegalArgumentException when there is no such dead letter, or {@code person} is the automation
     */
    QuarantineRecord recordReveal(String quarantineId, Actor person, List<String> sensitivePaths);

    /**
     * The idempotency claim of {@code record}'s key as its consumer would see it now, in the claim store the consumers
     * claim in: its status (COMPLETED means the effect was applied), fencing token (the attempts made) and failure
     * count, with its last failure. Empty when the record has no key, or no claim of it counts (none was written, or
     * it expired).
     */
    Optional<ClaimRecord> claim(QuarantineRecord record);

    /**
     * Approves replaying these dead letters, in batches per source queue (or, with {@code dryRun}, says what would
     * happen to each).
     */
    Map<String, ReplayOutcome> approveReplay(List<String> quarantineIds, Actor person, String reason, boolean dryRun);

    /**
     * Replays these dead letters one at a time, in order, telling {@code listener} each outcome and stopping between
     * two when it asks; a failure (an AWS call that fails) ends the run there. Resumable: run the same ids again.
     *
     * @param person who approves; may be null for a dry run, which changes nothing
     */
    RunResult replayEach(
            List<String> quarantineIds,
            Actor person,
            String reason,
            boolean dryRun,
            RunListener<ReplayOutcome> listener);

    /**
     * Replays one dead letter with {@code person}'s correction of its payload (edit and retry), through the same checks,
     * pacing, attributes and replay marker as any replay, sending {@code editedPayload} instead of the payload kept. The
     * edit must be readable by the consumer's current schema as written and keep the original's idempotency key;
     * otherwise it is refused ({@link dev.redrive.core.replay.ReplayOutcome.Rejected}, naming the validator's message or
     * the old and new key) and nothing changes. The record keeps its original payload; the audit entry that settles the
     * replay (REPLAYED when sent or found applied) carries the person, the reason and a bounded diff.
     *
     * @param reason required (blank allowed only for a dry run)
     * @param person who edits; may be null for a dry run, which changes nothing
     * @throws IllegalArgumentException when a reason is missing, or the person is the automation
     */
    EditedReplay replayEdited(String quarantineId, String editedPayload, Actor person, String reason, boolean dryRun);

    /** Archives these dead letters with a note instead of replaying them. */
    Map<String, ArchiveDecision.Outcome> archive(List<String> quarantineIds, Actor person, String note, boolean dryRun);

    /** {@link #archive}, one at a time, telling {@code listener} each outcome and stopping between two when asked. */
    RunResult archiveEach(
            List<String> quarantineIds,
            Actor person,
            String note,
            boolean dryRun,
            RunListener<ArchiveDecision.Outcome> listener);

    /** The figures of one route: depths, the oldest unresolved dead letter, arrivals over {@code since}, states. */
    RouteStatus status(Route route, Duration since);

    /** Replays sent and returned, by failure class, over all routes. */
    Map<FailureClass, ReplayStats.Totals> replayTotals();

    /**
     * The circuit breakers of the dependencies the deployment's consumers call, by dependency, as every sandbox
     * shares them now (a breaker never opened reads CLOSED with token 0; the token counts its transitions).
     */
    Map<String, BreakerState> breakers();

    /**
     * The history of each breaker {@link #breakers()} lists: its last {@link BreakerTransition#KEPT} transitions,
     * newest first (empty for a breaker never opened), with when, from and to which state, and why.
     */
    Map<String, List<BreakerTransition>> breakerHistories();

    /**
     * Ends the hold of {@code dependency}'s circuit breaker now: every maintenance window that holds it and lasts stops
     * holding it (it still approves replays), and the breaker is held as the windows then ask (with none, OPEN until
     * now: the next call probes). A window that starts later still holds it from its start.
     *
     * @return the ids of the windows that stopped holding it
     * @throws IllegalArgumentException when no breaker of {@code dependency} is shared here
     */
    List<String> releaseBreaker(String dependency, Actor person);

    /**
     * Asks for a probe of {@code dependency}'s circuit breaker now: its open period (or a probe's unanswered lease) ends,
     * so the next call, a consumer's or a replay's, is the probe. Written in the breaker's history with the person.
     *
     * @return the breaker as it is now (unchanged when a probe was due already)
     * @throws IllegalArgumentException when no breaker of it is shared here, it is CLOSED, or maintenance windows hold
     *     it (their hold ends first: {@link #releaseBreaker})
     */
    BreakerState probeBreaker(String dependency, Actor person);

    /**
     * {@code dependency} itself when the deployment has it: a dependency whose circuit breaker is shared here, one a
     * maintenance window names, or one a dead letter's failure names (the ledger is read only when the breakers and the
     * windows do not know it). The rule every interface applies to a dependency a person types, before adding a window.
     *
     * @throws IllegalArgumentException "unknown dependency 'x': did you mean 'y'? Known: ..." naming the known ones
     */
    String requireDependency(String dependency);

    /**
     * The checks of a new window a person asks for, the same in every interface, before {@link #addWindow}: its
     * dependency is one the deployment has ({@link #requireDependency}), no window has its id yet, and one that holds
     * its breaker has not ended (a hold lasts while the window does).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    void checkNewWindow(MaintenanceWindow window);

    /**
     * Opens (or replaces) a maintenance window, approved by {@code window.approvedBy()}. One that holds its breaker
     * ({@link MaintenanceWindow#holdsBreaker()}) and lasts now is held at once; one that starts later is held by the
     * sweeper's first run after its start. A hold is always the one the windows that exist ask for (until the latest end
     * of those that hold the breaker and last), so a replacement that ends sooner holds it to its own end. The window
     * and the breaker's hold are written together, or neither.
     *
     * @throws IllegalArgumentException when it holds a breaker that is not shared here: nothing is stored
     */
    MaintenanceWindow addWindow(MaintenanceWindow window);

    List<MaintenanceWindow> windows();

    Optional<MaintenanceWindow> window(String id);

    /**
     * Removes a window. If it was holding its dependency's breaker open ({@link #holdBreakerOpen}), the breaker is held
     * as the other windows still ask; when none does, the hold ends now: the breaker stays OPEN but its next call is the
     * probe. The window's removal and the breaker's write are one write: if it fails, the window is still there.
     */
    boolean removeWindow(String id);

    /**
     * Holds the circuit breaker of window {@code id}'s dependency OPEN until the window's end (the window is stored as
     * holding it from now on), across every sandbox of every consumer: no call reaches the dependency during planned maintenance, messages are deferred (not burnt
     * through their receives), replays are held, and after the window a probe decides. The window must have started
     * and not ended.
     *
     * @return the breaker as held (unchanged if it was already open past the window's end)
     * @throws IllegalArgumentException when there is no such window, it has not started or is over, or no breaker of
     *     its dependency is shared here
     */
    BreakerState holdBreakerOpen(String id);
}
