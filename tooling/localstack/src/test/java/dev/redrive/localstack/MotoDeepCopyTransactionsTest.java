package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.testing.localaws.EndpointOverrides;
import dev.redrive.testing.localaws.internal.MotoServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link TransactWriteContract} on a moto of its own started with {@code REDRIVE_MOTO_TRANSACTIONS=moto}: moto's own
 * rollback (a deep copy of every table a transaction touches). The contract holds on both, so the launcher's undo log
 * changes the cost of a transaction and nothing a client can see in it. The same launcher keeps moto's own routing
 * ({@code REDRIVE_MOTO_ROUTING=moto}, moto's listing of its modules for every request), on which requests reach the
 * same services as on the shared launcher ({@link MotoRoutingTest}): one moto start for both of moto's own ways.
 */
class MotoDeepCopyTransactionsTest extends TransactWriteContract {

    private static MotoServer moto;
    private static DynamoDbClient dynamoDb;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        assumeThat(EndpointOverrides.fromEnvironment().dynamoDb())
                .as("DynamoDB comes from AWS_ENDPOINT_URL, not from moto")
                .isEmpty();
        moto = MotoServer.start(Map.of("REDRIVE_MOTO_TRANSACTIONS", "moto", "REDRIVE_MOTO_ROUTING", "moto"));
        assertThat(moto.transactions()).startsWith("rollback=deep-copy ");
        dynamoDb = TransactFixtures.dynamoDb(moto.endpoint());
        streams = TransactFixtures.streams(moto.endpoint());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {dynamoDb, streams, moto}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** moto's rollback copies both tables for every transaction; the launcher keeps none of the copies registered. */
    @Test
    void motoKeepsNoCopyItsRollbackMade() throws Exception {
        TransactFixtures.Orders orders = new TransactFixtures.Orders();
        for (int i = 0; i < 10; i++) {
            cancelled(TransactFixtures.everyKindOfWriteThen(
                    new TransactFixtures.Ledger().conditionCheck("acct-a", "e1", "attribute_not_exists(pk)", false)));
        }
        for (int i = 0; i < 10; i++) {
            String pk = "o-more-" + i;
            dynamoDb.transactWriteItems(b -> b.transactItems(orders.put(pk, "placed", 1, "attribute_not_exists(pk)")));
        }

        JsonNode registered = MotoMemoryTest.motoDashboardData(moto.endpoint()).path("dynamodb");

        assertThat(registered.path("Item")).as("DynamoDB items moto registered").isEmpty();
        assertThat(registered.path("Table")).as("tables moto registered").hasSizeLessThanOrEqualTo(2);
        assertThat(registered.path("StreamShard"))
                .as("stream shards moto registered")
                .hasSizeLessThanOrEqualTo(2);
    }

    /** Moved from {@link MotoRoutingTest}, which started a launcher of its own for it. */
    @Test
    void withMotosOwnListingTheSameRequestsRouteTheSameWay() {
        assertThat(moto.routing()).isEqualTo("modules=moto");
        try (S3Client s3 = S3Client.builder()
                .endpointOverride(moto.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")))
                .forcePathStyle(true)
                .build()) {
            MotoRoutingTest.routesDynamoDbAndS3(dynamoDb, s3, "routing-own");
        }
    }

    @Override
    DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    @Override
    DynamoDbStreamsClient streams() {
        return streams;
    }

    @Override
    void reset() {
        moto.reset();
    }
}
