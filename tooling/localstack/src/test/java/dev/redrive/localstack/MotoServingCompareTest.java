package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.redrive.testing.localaws.EndpointOverrides;
import dev.redrive.testing.localaws.internal.MotoServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * {@link TransactWriteContract} through the Java SDK on a moto of its own whose serving changes all run in their
 * compare mode ({@code REDRIVE_MOTO_SERIALIZER}, {@code _QUERY}, {@code _EXPRESSIONS} = {@code compare}): every
 * DynamoDB answer serialized by moto and by the compiled shapes, every Query run both ways, every kept update
 * expression checked against a fresh parse, on the same state. When the launcher stops it reports what it compared:
 * nothing may differ.
 */
class MotoServingCompareTest extends TransactWriteContract {

    private static MotoServer moto;
    private static DynamoDbClient dynamoDb;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        assumeThat(EndpointOverrides.fromEnvironment().dynamoDb())
                .as("DynamoDB comes from AWS_ENDPOINT_URL, not from moto")
                .isEmpty();
        moto = MotoServer.start(Map.of(
                "REDRIVE_MOTO_SERIALIZER", "compare",
                "REDRIVE_MOTO_QUERY", "compare",
                "REDRIVE_MOTO_EXPRESSIONS", "compare"));
        assumeThat(moto.serving())
                .as("the launcher installs its serving changes on this moto (else it keeps moto's code)")
                .isEqualTo("serializer=compare query=compare expressions=compare");
        dynamoDb = TransactFixtures.dynamoDb(moto.endpoint());
        streams = TransactFixtures.streams(moto.endpoint());
    }

    @AfterAll
    static void stopAndReadWhatWasCompared() {
        if (moto == null) {
            return;
        }
        dynamoDb.close();
        streams.close();
        moto.close();
        List<String> reported = moto.reportedAtStop();
        assertThat(reported).noneMatch(line -> line.startsWith("REDRIVE_MOTO_WARNING"));
        assertThat(reported)
                .anySatisfy(line -> assertThat(line)
                        .startsWith("REDRIVE_MOTO_COMPARED serializer ")
                        .contains("differing=0")
                        .contains("GetRecords", "Query", "Scan", "TransactWriteItems", "PutItem"))
                .anySatisfy(
                        line -> assertThat(line).matches("REDRIVE_MOTO_COMPARED query compared=[1-9]\\d* differing=0"))
                .anySatisfy(line ->
                        assertThat(line).matches("REDRIVE_MOTO_COMPARED expressions compared=[1-9]\\d* differing=0"));
    }

    @Test
    void theLauncherReportsItsServingChangesInCompareMode() {
        assertThat(moto.serving()).isEqualTo("serializer=compare query=compare expressions=compare");
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
