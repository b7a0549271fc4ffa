package dev.redrive.aws;

import dev.redrive.aws.archive.S3ArchiveStore;
import dev.redrive.aws.archive.S3PayloadStore;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.claims.DynamoDbDeadLetterNotes;
import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.ledger.DynamoDbLeaseStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.ledger.DynamoDbReplayPaceStore;
import dev.redrive.aws.ledger.DynamoDbReplayStats;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsDeadLetterSource;
import dev.redrive.aws.queues.SqsReplaySender;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.operator.LedgerOperator;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.schema.RoutesDocument;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Redrive's resources on AWS and the adapters over them, in one place for every deployable that wires the dead-letter
 * workflow (the sweeper function, the CLI, the local run's operator): the same tables, bucket and queues give the same
 * ledger, claim lookup, sender and payloads everywhere. The builders it returns are core's, filled in; a caller sets
 * what is its own (the consumers, the schema gate, a wrapped sender) and builds.
 *
 * @param queues            queue URLs by name (the routes' URLs registered)
 * @param dlqVisibilitySecs how long a dead letter received by the sweeper stays invisible
 */
public record AwsRedrive(
        DynamoDbClient dynamoDb,
        SqsClient sqs,
        S3Client s3,
        QueueDirectory queues,
        Names names,
        int dlqVisibilitySecs,
        Clock clock) {

    /**
     * The names of the tables and the buckets (the functions' {@code REDRIVE_*} configuration).
     *
     * @param claimChecks where the payloads of claim checks are (the Extended Client Library's buckets)
     */
    public record Names(
            String claimsTable,
            String quarantineTable,
            String controlTable,
            String archiveBucket,
            Optional<String> archiveKmsKeyId,
            ClaimCheckSettings claimChecks) {
        public Names {
            Objects.requireNonNull(claimsTable, "claimsTable");
            Objects.requireNonNull(quarantineTable, "quarantineTable");
            Objects.requireNonNull(controlTable, "controlTable");
            Objects.requireNonNull(archiveBucket, "archiveBucket");
            archiveKmsKeyId = archiveKmsKeyId.filter(k -> !k.isBlank());
            Objects.requireNonNull(claimChecks, "claimChecks");
        }

        /** Names without a claim-check bucket. */
        public Names(
                String claimsTable,
                String quarantineTable,
                String controlTable,
                String archiveBucket,
                Optional<String> archiveKmsKeyId) {
            this(claimsTable, quarantineTable, controlTable, archiveBucket, archiveKmsKeyId, ClaimCheckSettings.NONE);
        }
    }

    public AwsRedrive {
        Objects.requireNonNull(dynamoDb, "dynamoDb");
        Objects.requireNonNull(sqs, "sqs");
        Objects.requireNonNull(s3, "s3");
        Objects.requireNonNull(queues, "queues");
        Objects.requireNonNull(names, "names");
        Objects.requireNonNull(clock, "clock");
    }

    public DynamoDbQuarantineLedger ledger() {
        return new DynamoDbQuarantineLedger(dynamoDb, names.quarantineTable(), clock);
    }

    public DynamoDbClaimStore claims() {
        return new DynamoDbClaimStore(dynamoDb, names.claimsTable());
    }

    public DynamoDbLeaseStore leases() {
        return new DynamoDbLeaseStore(dynamoDb, names.controlTable());
    }

    public DynamoDbMaintenanceWindows windows() {
        return new DynamoDbMaintenanceWindows(dynamoDb, names.controlTable());
    }

    public DynamoDbReplayStats stats() {
        return new DynamoDbReplayStats(dynamoDb, names.controlTable());
    }

    public S3PayloadStore payloads() {
        return new S3PayloadStore(
                s3, names.archiveBucket(), names.archiveKmsKeyId().orElse(null));
    }

    /** The claim checks of the queues ({@link ClaimCheckSettings#on}). */
    public ClaimChecks claimChecks() {
        return names.claimChecks().on(s3);
    }

    public S3ArchiveStore archive() {
        return new S3ArchiveStore(
                s3, names.archiveBucket(), names.archiveKmsKeyId().orElse(null), clock);
    }

    /** The dead letters, each without its metadata given the failure its consumer kept in a note. */
    public SqsDeadLetterSource deadLetters() {
        return new SqsDeadLetterSource(sqs, queues, dlqVisibilitySecs, notes(), clock);
    }

    /** The notes of dead letters that had no room for their failure metadata, in the claims table. */
    public DynamoDbDeadLetterNotes notes() {
        return new DynamoDbDeadLetterNotes(dynamoDb, names.claimsTable());
    }

    public SqsReplaySender sender() {
        return new SqsReplaySender(sqs, queues);
    }

    /** Records of a replay batch checked at once: their claim lookups and payload reads overlap. */
    public static final int REPLAY_CHECK_PARALLELISM = 4;

    /** The replay paces of every lane, in the control table: the sweeper and every CLI book in the same one. */
    public DynamoDbReplayPaceStore paces() {
        return new DynamoDbReplayPaceStore(dynamoDb, names.controlTable());
    }

    /**
     * The replay service on these resources, checking with {@code consumers} and {@code schemas}, {@value
     * #REPLAY_CHECK_PARALLELISM} records at a time, paced per lane at {@link ReplayPace#DEFAULT} (a caller with its
     * own settings sets {@link ReplayService.Builder#pace}) and held while a lane's breaker is open.
     */
    public ReplayService.Builder replays(Map<String, ? extends KeyReader> consumers, SchemaGate schemas) {
        return ReplayService.builder()
                .ledger(ledger())
                .parallelism(REPLAY_CHECK_PARALLELISM)
                .schemas(schemas)
                .claimLookup(consumers, claims())
                .sender(sender())
                .payloads(payloads())
                .claimChecks(claimChecks())
                .pacing(paces())
                .pace(ReplayPace.DEFAULT)
                .breakers(breakers())
                .clock(clock);
    }

    /** The consumers' circuit breakers, in the control table. */
    public DynamoDbBreakerStore breakers() {
        return new DynamoDbBreakerStore(dynamoDb, names.controlTable());
    }

    /**
     * Maintenance windows' holds of the consumers' shared breakers, those of {@code dependencies} (the routes
     * document's declared breakers): the sweeper writes the holds of windows that start.
     */
    public BreakerHolds breakerHolds(List<String> dependencies) {
        return new BreakerHolds(breakers(), windows(), dependencies);
    }

    /**
     * The operator port on these resources, replaying through {@code replays}, showing and holding the breakers of
     * {@code breakerDependencies} (the routes document's declared breakers).
     */
    public LedgerOperator.Builder operator(ReplayService replays, List<String> breakerDependencies) {
        return LedgerOperator.builder()
                .breakers(breakers(), breakerDependencies)
                .ledger(ledger())
                .replays(replays)
                .windows(windows())
                .stats(stats())
                .queues(deadLetters())
                .payloads(payloads())
                .claims(claims())
                .clock(clock);
    }

    /**
     * The operator port on these resources, replaying through {@code replays}, with the breakers {@code routes} declares
     * and its routes' source queues (a listing of resolved dead letters reads those archived to the store by queue).
     */
    public LedgerOperator.Builder operator(ReplayService replays, RoutesDocument routes) {
        return operator(replays, routes.breakers())
                .sourceQueues(routes.routes().stream()
                        .map(r -> QueueAddress.nameOf(r.sourceQueue()))
                        .distinct()
                        .toList());
    }

    /** The sweeper on these resources, reading keys with {@code consumers} and replaying through {@code replays}. */
    public Sweeper.Builder sweeper(Map<String, ? extends KeyReader> consumers, ReplayService replays) {
        return Sweeper.builder()
                .deadLetters(deadLetters())
                .ledger(ledger())
                .leases(leases())
                .consumers(consumers, claims())
                .payloads(payloads())
                .windows(windows())
                .replays(replays)
                .stats(stats())
                .archive(archive())
                .clock(clock);
    }
}
