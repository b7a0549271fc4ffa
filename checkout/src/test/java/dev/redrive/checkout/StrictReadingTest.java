package dev.redrive.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.failure.SchemaViolation;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one strict reading every checkout consumer (and the replay gate) shares: ambiguous JSON, out-of-range money,
 * keys that are no keys and versions of the wrong type are refused with a reason naming the field and the rule.
 */
class StrictReadingTest {

    final OrderPlacedReader reader = new OrderPlacedReader(new ObjectMapper(), new EventSchemas());

    static String order(String eventId, String amount) {
        return "{\"eventType\":\"OrderPlaced\",\"version\":2,\"eventId\":" + eventId + ",\"orderId\":\"o-1\","
                + "\"customer\":{\"email\":\"jane.doe@example.com\"},\"total\":{\"amountMinor\":" + amount
                + ",\"currency\":\"EUR\"},\"placedAt\":\"2026-11-29T10:15:30Z\"}";
    }

    SchemaViolation refused(String body) {
        SchemaViolation v = catchThrowableOfType(
                () -> reader.read(new IncomingMessage("m-1", "rh", body, Map.of(), 1, "q", null)),
                SchemaViolation.class);
        assertThat(v)
                .as("refused: %s", body.length() > 200 ? body.substring(0, 200) : body)
                .isNotNull();
        assertThat(v.getMessage()).doesNotContain("jane.doe");
        return v;
    }

    @Test
    void anAmountBeyondWhatALongHoldsIsRefusedNamingTheFieldNeverWrapped() {
        SchemaViolation v = refused(order("\"evt-1\"", "18446744073709551716")); // 2^64 + 100
        assertThat(v.errorType()).isEqualTo("AmountOutOfRange");
        assertThat(v.getMessage()).contains("total.amountMinor").contains("maximum");
    }

    @Test
    void amountsThatSaturateLoseTheirSignOrAreNotIntegersAreRefused() {
        for (String amount : new String[] {
            "1e19", "9223372036854775808", "-50", "-9223372036854775809", "12.5", "1.0e2", "100.0", "9007199254740992"
        }) {
            SchemaViolation v = refused(order("\"evt-1\"", amount));
            assertThat(v.getMessage()).as(amount).contains("total.amountMinor");
            assertThat(v.errorType()).as(amount).isIn("AmountOutOfRange", "AmountNotAnInteger");
        }
        assertThat(reader.read(message(order("\"evt-1\"", "9007199254740991")))
                        .event()
                        .amountMinor())
                .isEqualTo(9007199254740991L);
        assertThat(reader.read(message(order("\"evt-1\"", "0"))).event().amountMinor())
                .isZero();
    }

    @Test
    void trailingTokensAndDuplicateKeysAreRefusedNotResolvedSilently() {
        String one = order("\"evt-1\"", "100");
        assertThat(refused(one + one).errorType()).isEqualTo("TrailingTokens");
        assertThat(refused(one + " {}").errorType()).isEqualTo("TrailingTokens");
        SchemaViolation dupKey = refused(one.replace("\"orderId\"", "\"eventId\":\"evt-2\",\"orderId\""));
        assertThat(dupKey.errorType()).isEqualTo("DuplicateKey");
        assertThat(dupKey.getMessage()).contains("$.eventId");
        SchemaViolation dupAmount = refused(one.replace("\"currency\"", "\"amountMinor\":1,\"currency\""));
        assertThat(dupAmount.errorType()).isEqualTo("DuplicateKey");
        assertThat(dupAmount.getMessage()).contains("$.total.amountMinor");
        SchemaViolation dupUnknown = refused(one.replace("\"orderId\"", "\"jane\":1,\"jane\":2,\"orderId\""));
        assertThat(dupUnknown.getMessage()).doesNotContain("jane");
    }

    @Test
    void deepNestingIsRefusedAsTooDeepNotAsNotJson() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        SchemaViolation v = refused(order("\"evt-1\"", "100").replace("\"orderId\"", "\"x\":" + deep + ",\"orderId\""));
        assertThat(v.errorType()).isEqualTo("TooDeep");
        assertThat(refused("[".repeat(10_000)).errorType()).isEqualTo("TooDeep");
    }

    @Test
    void anEventIdThatIsNoKeyIsASchemaFailureNamingTheRuleWithoutRawControlCharacters() {
        for (String id : new String[] {
            "\"evt\\u0000-1\"",
            "\"evt\\u001b[2J\"",
            "\"evt-1\\nforged\"",
            "\" \"",
            "\"\"",
            "\"evt\\u2028x\"",
            "\"" + "a".repeat(257) + "\"",
            "\"evt 1\""
        }) {
            SchemaViolation v = refused(order(id, "100"));
            assertThat(v.errorType()).as(id).isEqualTo("InvalidEventId");
            assertThat(v.getMessage()).as(id).contains("$.eventId").doesNotContain("forged");
            assertThat(v.getMessage().codePoints()).as(id).allMatch(cp -> cp >= 0x20 && cp != 0x7f && cp != 0x2028);
        }
        assertThat(reader.eventId(order("\"evt\\u0000-1\"", "100"))).isEmpty();
        assertThat(reader.eventId(order("\"evt-1\"", "100") + "{}")).isEmpty();
    }

    @Test
    void aVersionOfTheWrongTypeIsInvalidNotMissing() {
        String one = order("\"evt-1\"", "100");
        for (String version : new String[] {"\"2\"", "2.5", "true", "null", "2.0"}) {
            SchemaViolation v = refused(one.replace("\"version\":2", "\"version\":" + version));
            assertThat(v.errorType()).as(version).isEqualTo("InvalidVersion");
        }
        assertThat(refused(one.replace("\"version\":2,", "")).errorType()).isEqualTo("MissingVersion");
    }

    @Test
    void anotherEventTypeIsNotEchoed() {
        SchemaViolation v = refused(order("\"evt-1\"", "100").replace("\"OrderPlaced\"", "\"jane.doe@example.com\""));
        assertThat(v.errorType()).isEqualTo("UnexpectedEventType");
        assertThat(v.getMessage()).doesNotContain("jane");
    }

    @Test
    void aBodyOverTheSizeBoundIsRefusedBeforeParsing() {
        String huge = order("\"evt-1\"", "100")
                .replace("\"orderId\"", "\"pad\":\"" + "x".repeat(StrictJson.MAX_BODY_BYTES) + "\",\"orderId\"");
        assertThat(refused(huge).errorType()).isEqualTo("TooLarge");
    }

    static IncomingMessage message(String body) {
        return new IncomingMessage("m-1", "rh", body, Map.of(), 1, "q", null);
    }
}
