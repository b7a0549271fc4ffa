package dev.redrive.cli;

import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.LedgerOperator;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.Route;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.schema.SchemaRegistry;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.claim.InMemoryClaimStore;
import dev.redrive.testing.lease.InMemoryLeaseStore;
import dev.redrive.testing.quarantine.InMemoryQuarantineLedger;
import dev.redrive.testing.replay.InMemoryMaintenanceWindows;
import dev.redrive.testing.replay.InMemoryPayloadStore;
import dev.redrive.testing.replay.RecordingReplaySender;
import dev.redrive.testing.sweeper.InMemoryDeadLetterSource;
import dev.redrive.testing.sweeper.InMemoryReplayStats;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The CLI on core's in-memory fakes: the same commands, parsing, output and exit codes, over the operator port built
 * from the fakes and the checkout's real consumers and schema gate. No AWS at all: the commands that read AWS settings
 * themselves ({@code backoff --queue}, the STS identity) get a configuration error.
 */
final class InMemoryCli {

    static final Instant NOW = CliRig.NOW;
    static final Route ROUTE = new Route(DeadLetters.CONSUMER, DeadLetters.QUEUE, DeadLetters.QUEUE + "-dlq");

    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final InMemoryLeaseStore leases = new InMemoryLeaseStore();
    final InMemoryQuarantineLedger ledger = new InMemoryQuarantineLedger(leases, clock);
    final InMemoryClaimStore claims = new InMemoryClaimStore();
    final InMemoryDeadLetterSource queues = new InMemoryDeadLetterSource();
    /** The breakers the route declares, shared in memory; the windows are kept with them, as on DynamoDB. */
    final InMemoryBreakerStore breakers = new InMemoryBreakerStore();

    final InMemoryMaintenanceWindows windows = new InMemoryMaintenanceWindows(breakers);
    final InMemoryPayloadStore payloads = new InMemoryPayloadStore();
    final InMemoryReplayStats stats = new InMemoryReplayStats();
    final RecordingReplaySender sender = new RecordingReplaySender();
    /** The checkout's declared route: the CLI checks replays by it, with no consumer code. */
    final RoutesDocument routes = new RoutesDocument(List.of(CheckoutContracts.route(
            ROUTE.consumer(), ROUTE.sourceQueue(), ROUTE.deadLetterQueue(), ConfirmationEmailConsumer.DEPENDENCY)));

    final Map<String, ContractReader> readers = routes.readers();
    final OperatorPort operator = LedgerOperator.builder()
            .ledger(ledger)
            .replays(ReplayService.builder()
                    .ledger(ledger)
                    .schemas(routes.schemaGate(readers))
                    .claimLookup(routes.keyReaders(readers), claims)
                    .sender(sender)
                    .payloads(payloads)
                    .clock(clock)
                    .build())
            .windows(windows)
            .breakers(breakers, routes.breakers())
            .stats(stats)
            .queues(queues)
            .payloads(payloads)
            .claims(claims)
            .sourceQueues(List.of(ROUTE.sourceQueue()))
            .clock(clock)
            .build();

    CliRig.Run run(String... args) {
        return run(CliContext.of(Map.of(), clock, "os-user"), args);
    }

    CliRig.Run run(CliContext context, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (RedriveCli root = new RedriveCli(context, (c, settings) -> new FakeBackend(settings))) {
            CommandLine cl = RedriveCli.commandLine(root);
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = cl.execute(args);
            return new CliRig.Run(code, out.toString(), err.toString());
        }
    }

    /** A root command on the fakes, for a test that drives a long-running command ({@code console}) itself. */
    RedriveCli root(CliContext context) {
        return new RedriveCli(context, (c, settings) -> new FakeBackend(settings));
    }

    /** A QUARANTINED dead letter of the email consumer that arrived {@code ago} before {@link #NOW}. */
    QuarantineRecord deadLetter(String id, String body, FailureClass c, String errorType, Duration ago) {
        QuarantineRecord r =
                DeadLetters.quarantined(id, body, DeadLetters.classification(c, errorType), NOW.minus(ago));
        if (!ledger.insertIfAbsent(r, Optional.empty())) {
            throw new IllegalStateException("dead letter " + id + " exists already");
        }
        return record(id);
    }

    QuarantineRecord record(String id) {
        return ledger.find(id).orElseThrow();
    }

    /** A completed claim for {@code body}, as the email consumer leaves it once applied. */
    void applied(String body) {
        ParsedMessage<?> parsed =
                readers.get(ROUTE.consumer()).parse(new IncomingMessage("m", null, body, Map.of(), 1, "", null));
        IdempotencyKey key = new IdempotencyKey(DeadLetters.CONSUMER, parsed.producerKey());
        ClaimOutcome outcome = claims.claim(
                new ClaimRequest(
                        key,
                        PayloadFingerprint.of(parsed.canonicalPayload()),
                        NOW.plusSeconds(30),
                        NOW.plus(Duration.ofDays(30)),
                        new MessageOrigin(DeadLetters.QUEUE, "m-1")),
                NOW);
        claims.complete(key, ((ClaimOutcome.Acquired) outcome).fencingToken(), "sent", NOW);
    }

    /** The backend of the fakes: one route, no AWS. */
    private final class FakeBackend implements Backend {
        private final Settings settings;

        FakeBackend(Settings settings) {
            this.settings = settings;
        }

        @Override
        public OperatorPort operator() {
            return operator;
        }

        @Override
        public List<Route> routes() {
            return List.of(ROUTE);
        }

        @Override
        public Route routeOf(String name) {
            if (!ROUTE.sourceQueue().equals(name)) {
                throw CliException.config("no queue '" + name + "' in memory");
            }
            return ROUTE;
        }

        @Override
        public SchemaRegistry schemas() {
            return routes.schemas();
        }

        @Override
        public RoutesDocument routesDocument() {
            return routes;
        }

        @Override
        public Settings settings() {
            return settings;
        }

        @Override
        public AwsClients aws() {
            throw CliException.config("this run has no AWS (the CLI on in-memory fakes)");
        }

        @Override
        public QueueDirectory directory() {
            throw CliException.config("this run has no AWS (the CLI on in-memory fakes)");
        }

        @Override
        public void close() {}
    }
}
