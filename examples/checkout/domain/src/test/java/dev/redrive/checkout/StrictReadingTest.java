package dev.redrive.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.schema.StrictJson;
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

    /** An order whose customer email is {@code email} (JSON string contents, escapes allowed). */
    static String withEmail(String email) {
        return order("\"evt-1\"", "100").replace("jane.doe@example.com", email);
    }

    /**
     * A lone UTF-16 surrogate is no Unicode text: refused as SCHEMA, the reason naming the field, neither the value nor
     * the surrogate (raw, or as an escape) in it. Raw (the body's own char) and escaped ({@code \ud800}) alike, high or
     * low, at the start, in the middle or at the end, and a pair in the wrong order.
     */
    @Test
    void aLoneSurrogateInTheEmailIsRefusedAsSchemaNamingTheFieldNeverEchoingIt() {
        for (String email : new String[] {
            "jane.doe\\ud800@example.com",
            "jane.doe\\uDC00@example.com",
            "jane.doe@example.com\\ud83d",
            "\\ude00jane.doe@example.com",
            "jane.doe\\ude00\\ud83d@example.com",
            "jane.doe\\udbff@example.com"
        }) {
            for (String body : new String[] {withEmail(email), unescapeSurrogates(withEmail(email))}) {
                SchemaViolation v = refused(body);
                assertThat(v.errorType()).as(email).isEqualTo("LoneSurrogate");
                assertThat(v.getMessage())
                        .as(email)
                        .contains("$.customer.email")
                        .doesNotContain("example.com")
                        .doesNotContainIgnoringCase("\\ud")
                        .doesNotContainIgnoringCase("d800");
                assertThat(v.getMessage().chars().anyMatch(c -> Character.isSurrogate((char) c)))
                        .as(email)
                        .isFalse();
            }
        }
    }

    /** Every string of the body is held to it: each field the schema knows, by name; an unknown one, never named. */
    @Test
    void aLoneSurrogateInAnyStringOrKeyIsRefusedTheSameWay() {
        String one = order("\"evt-1\"", "100");
        Map<String, String> byField = new java.util.LinkedHashMap<>();
        byField.put("$.eventType", one.replace("\"OrderPlaced\"", "\"Order\\ud800Placed\""));
        byField.put("$.eventId", order("\"evt\\ud800-1\"", "100"));
        byField.put("$.orderId", one.replace("\"o-1\"", "\"o-\\udc001\""));
        byField.put("$.customer.email", withEmail("jane.doe\\ud800@example.com"));
        byField.put("$.customer.name", one.replace("\"customer\":{", "\"customer\":{\"name\":\"Jane \\ud800Doe\","));
        byField.put("$.total.currency", one.replace("\"EUR\"", "\"EU\\ud800\""));
        byField.put("$.placedAt", one.replace("\"2026-11-29T10:15:30Z\"", "\"2026-11-29T10:15:30Z\\ud800\""));
        for (Map.Entry<String, String> e : byField.entrySet()) {
            for (String body : new String[] {e.getValue(), unescapeSurrogates(e.getValue())}) {
                SchemaViolation v = refused(body);
                assertThat(v.errorType()).as(e.getKey()).isEqualTo("LoneSurrogate");
                assertThat(v.getMessage()).as(e.getKey()).contains(e.getKey() + " ");
                assertThat(v.getMessage().chars().anyMatch(c -> Character.isSurrogate((char) c)))
                        .as(e.getKey())
                        .isFalse();
            }
        }
        SchemaViolation unknownValue =
                refused(one.replace("\"orderId\"", "\"janeNote\":{\"x\":[\"ok\",\"jane\\ud800\"]},\"orderId\""));
        assertThat(unknownValue.errorType()).isEqualTo("LoneSurrogate");
        assertThat(unknownValue.getMessage())
                .contains("$")
                .doesNotContain("janeNote")
                .doesNotContain("jane\\");
        SchemaViolation unknownKey = refused(one.replace("\"total\":{", "\"total\":{\"jane\\ud800\":1,"));
        assertThat(unknownKey.errorType()).isEqualTo("LoneSurrogate");
        assertThat(unknownKey.getMessage()).contains("$.total").doesNotContain("jane");
        assertThat(reader.eventId(order("\"evt\\ud800-1\"", "100"))).isEmpty();
    }

    @Test
    void aSurrogatePairIsTextAndIsRead() {
        String name = "J\\u00f6rg \\ud83d\\ude00";
        String body = order("\"evt-1\"", "100").replace("\"customer\":{", "\"customer\":{\"name\":\"" + name + "\",");
        assertThat(reader.read(message(body)).event().eventId()).isEqualTo("evt-1");
        assertThat(reader.read(message(unescapeSurrogates(body))).event().eventId())
                .isEqualTo("evt-1");
        assertThat(reader.read(message(withEmail("jane.doe+\\ud83d\\ude00@example.com")))
                        .event()
                        .customerEmail())
                .isEqualTo("jane.doe+\ud83d\ude00@example.com");
    }

    /** {@code body} with every {@code \\uD800}-{@code \\uDFFF} escape replaced by the raw char it stands for. */
    static String unescapeSurrogates(String body) {
        return java.util.regex.Pattern.compile("\\\\u([dD][89a-fA-F][0-9a-fA-F]{2})")
                .matcher(body)
                .replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                        String.valueOf((char) Integer.parseInt(m.group(1), 16))));
    }

    static IncomingMessage message(String body) {
        return new IncomingMessage("m-1", "rh", body, Map.of(), 1, "q", null);
    }
}
