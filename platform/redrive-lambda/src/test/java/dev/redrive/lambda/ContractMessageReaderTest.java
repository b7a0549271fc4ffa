package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.EventContract;
import dev.redrive.schema.KeySource;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A declared contract's reader is a {@link MessageReader}: what the README tells a handler to pass. */
class ContractMessageReaderTest {

    @Test
    void aContractReaderReadsForTheConsumerWhatTheSweeperReadsForItsRoute() throws Exception {
        JsonNode schema = new ObjectMapper()
                .readTree("{\"type\":\"object\",\"required\":[\"id\",\"amount\"],"
                        + "\"properties\":{\"id\":{\"type\":\"string\"},\"amount\":{\"type\":\"integer\"}}}");
        EventContract contract = new EventContract(
                "receipts",
                KeySource.pointer("/id"),
                Optional.empty(),
                Optional.empty(),
                Map.of("Receipt", new TreeMap<>(Map.of(1, schema))),
                Map.of());
        ContractReader declared = new ContractReader(contract);
        MessageReader<JsonNode> reader = declared::parse;

        var read = reader.read(message("{\"amount\":5,\"id\":\"r-1\"}"));

        assertThat(read.producerKey()).isEqualTo("r-1");
        assertThat(read.canonicalPayload()).isEqualTo("{\"amount\":5,\"id\":\"r-1\"}");
        assertThat(declared.producerKey(message("{\"amount\":5,\"id\":\"r-1\"}")))
                .contains("r-1");
        assertThatThrownBy(() -> reader.read(message("{\"amount\":\"five\",\"id\":\"r-1\"}")))
                .isInstanceOfSatisfying(
                        SchemaViolation.class, v -> assertThat(v.errorType()).isEqualTo("SchemaValidation"));
    }

    private static IncomingMessage message(String body) {
        return new IncomingMessage("m-1", "rh-1", body, Map.of(), 1, "q", null);
    }
}
