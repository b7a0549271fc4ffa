package dev.redrive.localrun.eventsource;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

class SqsEventsTest {

    /** As Lambda delivers them: a Binary attribute's bytes in base64, a Number's text, each with its data type. */
    @Test
    void binaryAndNumberAttributesAreDeliveredAsLambdaDeliversThem() throws Exception {
        Message m = Message.builder()
                .messageId("m-1")
                .receiptHandle("rh")
                .body("{}")
                .messageAttributes(Map.of(
                        "blob",
                        MessageAttributeValue.builder()
                                .dataType("Binary")
                                .binaryValue(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 0xff}))
                                .build(),
                        "ratio",
                        MessageAttributeValue.builder()
                                .dataType("Number.float")
                                .stringValue("0.25")
                                .build()))
                .build();
        ObjectMapper json = new ObjectMapper();

        JsonNode attributes = json.readTree(SqsEvents.event(json, List.of(m), "arn:aws:sqs:us-east-1:0:q", "us-east-1"))
                .at("/Records/0/messageAttributes");

        assertThat(attributes.at("/blob/dataType").asText()).isEqualTo("Binary");
        assertThat(attributes.at("/blob/binaryValue").asText()).isEqualTo("AAEC/w==");
        assertThat(attributes.at("/ratio/dataType").asText()).isEqualTo("Number.float");
        assertThat(attributes.at("/ratio/stringValue").asText()).isEqualTo("0.25");
    }
}
