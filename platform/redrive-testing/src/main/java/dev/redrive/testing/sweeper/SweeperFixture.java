package dev.redrive.testing.sweeper;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.operator.LedgerOperator;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.core.sweeper.SweeperSettings;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.ScriptedConsumer;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.claim.InMemoryClaimStore;
import dev.redrive.testing.lease.InMemoryLeaseStore;
import dev.redrive.testing.payload.InMemoryClaimChecks;
import dev.redrive.testing.quarantine.InMemoryQuarantineLedger;
import dev.redrive.testing.replay.InMemoryMaintenanceWindows;
import dev.redrive.testing.replay.InMemoryPayloadStore;
import dev.redrive.testing.replay.RecordingReplaySender;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The sweeper wired to in-memory fakes. Payloads are {@code key|payload}; a body starting {@code v1:} is an older
 * schema version with an upcaster (the prefix is dropped), {@code v0:} has none.
 */
public class SweeperFixture {

    public static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    public static final Route ROUTE = new Route("scripted", "orders", "orders-dlq");

    public final ManualClock clock = new ManualClock(T0);
    public final InMemoryLeaseStore leases = new InMemoryLeaseStore();
    public final InMemoryQuarantineLedger ledger = new InMemoryQuarantineLedger(leases, clock);
    /** The ledger the sweeper and the replays write through: a test may put another actor's write before a save. */
    public final InterleavingLedger interleaved = new InterleavingLedger(ledger);

    public final InMemoryClaimStore claims = new InMemoryClaimStore();
    public final InMemoryDeadLetterSource dlq = new InMemoryDeadLetterSource();
    /** The consumers' breakers, kept with the windows (their holds are written together). */
    public final InMemoryBreakerStore breakers = new InMemoryBreakerStore();

    public final InMemoryMaintenanceWindows windows = new InMemoryMaintenanceWindows(breakers);
    public final InMemoryPayloadStore payloads = new InMemoryPayloadStore();
    /** Where claim checks' payloads are: a body that is not a claim check passes through untouched. */
    public final InMemoryClaimChecks claimChecks = new InMemoryClaimChecks();

    public final InMemoryArchiveStore archive = new InMemoryArchiveStore();
    public final InMemoryReplayStats stats = new InMemoryReplayStats();
    public final RecordingReplaySender sender = new RecordingReplaySender();
    public final ScriptedConsumer consumer = new ScriptedConsumer();
    public final SweeperSettings settings = new SweeperSettings(Duration.ofDays(7), 100, 1_000, 100);

    public final SchemaGate schemas = (c, body) -> body.startsWith("v1:")
            ? new SchemaGate.Upcast(body.substring(3), 1, 2)
            : body.startsWith("v0:")
                    ? new SchemaGate.Incompatible("v0 payload has no upcaster to v2")
                    : new SchemaGate.Current();
    public final ReplayService replays = replayService().build();
    public final Sweeper sweeper = sweeper(settings);

    /** The replay service's builder on this fixture's ports, for a test to add to (pacing, say). */
    public ReplayService.Builder replayService() {
        return ReplayService.builder()
                .ledger(interleaved)
                .schemas(schemas)
                .claimLookup(Map.of("scripted", consumer), claims)
                .sender(sender)
                .payloads(payloads)
                .claimChecks(claimChecks)
                .clock(clock);
    }

    /** The operator port's builder on this fixture's ports (the ledger as stored), for a test to add to. */
    public LedgerOperator.Builder operator() {
        return LedgerOperator.builder()
                .ledger(ledger)
                .replays(replays)
                .windows(windows)
                .stats(stats)
                .queues(dlq)
                .payloads(payloads)
                .claims(claims)
                .clock(clock);
    }

    /** A sweeper on this fixture's ports with other settings. */
    public Sweeper sweeper(SweeperSettings settings) {
        return sweeper(settings, replays);
    }

    /** A sweeper on this fixture's ports with other settings, replaying through {@code replays}. */
    public Sweeper sweeper(SweeperSettings settings, ReplayService replays) {
        return Sweeper.builder()
                .deadLetters(dlq)
                .ledger(interleaved)
                .leases(leases)
                .consumers(Map.of("scripted", consumer), claims)
                .payloads(payloads)
                .windows(windows)
                .replays(replays)
                .stats(stats)
                .archive(archive)
                .settings(settings)
                .clock(clock)
                .replayBatch(100)
                .build();
    }

    public SweepReport sweep() {
        return sweeper.sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);
    }

    public static ArrivedDeadLetter redriven(String body, int receives) {
        return new ArrivedDeadLetter(
                UUID.randomUUID().toString(),
                "rh",
                body,
                Map.of("trace", MessageAttribute.ofString("t")),
                receives,
                T0,
                Optional.empty(),
                Optional.empty());
    }

    public static ArrivedDeadLetter attached(
            String body, FailureClass c, String type, String dependency, Instant failedAt) {
        String sourceId = UUID.randomUUID().toString();
        FailureRecord f = new FailureRecord(
                new Classification(c, type, type + " happened", dependency), 2, failedAt, failedAt, "orders");
        return new ArrivedDeadLetter(
                UUID.randomUUID().toString(),
                "rh",
                body,
                Map.of(),
                2,
                failedAt,
                Optional.of(new ArrivedDeadLetter.AttachedFailure(
                        "scripted", "scripted#" + body.split("\\|")[0].replaceFirst("^v[01]:", ""), sourceId, f)),
                Optional.empty());
    }

    public static ArrivedDeadLetter returned(String body, ReplayMarker marker) {
        return new ArrivedDeadLetter(
                UUID.randomUUID().toString(), "rh", body, Map.of(), 5, T0, Optional.empty(), Optional.of(marker));
    }
}
