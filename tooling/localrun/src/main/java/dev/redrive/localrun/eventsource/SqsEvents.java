package dev.redrive.localrun.eventsource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Builds the SQS event Lambda sends a function, in Lambda's JSON shape: for the poller, and for benchmarks and tests
 * that invoke a sandbox themselves.
 */
public final class SqsEvents {

    private SqsEvents() {}

    public static String event(ObjectMapper json, List<Message> messages, String queueArn, String region) {
        ObjectNode event = json.createObjectNode();
        ArrayNode records = event.putArray("Records");
        for (Message m : messages) {
            ObjectNode r = records.addObject();
            r.put("messageId", m.messageId());
            r.put("receiptHandle", m.receiptHandle());
            r.put("body", m.body());
            ObjectNode attributes = r.putObject("attributes");
            m.attributes().forEach((k, v) -> attributes.put(k.toString(), v));
            ObjectNode messageAttributes = r.putObject("messageAttributes");
            for (Map.Entry<String, MessageAttributeValue> a :
                    m.messageAttributes().entrySet()) {
                ObjectNode value = messageAttributes.putObject(a.getKey());
                value.put("dataType", a.getValue().dataType());
                if (a.getValue().stringValue() != null) {
                    value.put("stringValue", a.getValue().stringValue());
                }
                if (a.getValue().binaryValue() != null) {
                    // as Lambda delivers it: base64; the function's dead letters carry it on unchanged
                    value.put(
                            "binaryValue",
                            Base64.getEncoder()
                                    .encodeToString(a.getValue().binaryValue().asByteArray()));
                }
                value.putArray("stringListValues");
                value.putArray("binaryListValues");
            }
            r.put("md5OfBody", m.md5OfBody());
            r.put("eventSource", "aws:sqs");
            r.put("eventSourceARN", queueArn);
            r.put("awsRegion", region);
        }
        return event.toString();
    }
}
