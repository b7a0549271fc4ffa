package dev.redrive.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PayloadDiffTest {

    @Test
    void changedAddedAndRemovedPathsWithOldAndNewValues() {
        String before = "{\"id\":\"k1\",\"amount\":10,\"meta\":{\"tags\":[\"a\",\"b\"],\"a/b\":true},\"gone\":null}";
        String after = "{\"id\":\"k1\",\"amount\":12.5,\"meta\":{\"tags\":[\"a\"],\"a/b\":false},\"new\":\"x\\\"y\"}";

        assertThat(PayloadDiff.between(before, after))
                .isEqualTo("/amount: 10 → 12.5; /meta/tags/1: \"b\" → (absent); /meta/a~1b: true → false;"
                        + " /gone: null → (absent); /new: (absent) → \"x\\\"y\"");
    }

    @Test
    void equalPayloadsAndLayoutOnlyChanges() {
        assertThat(PayloadDiff.between("{\"a\":1}", "{\"a\":1}")).isEqualTo(PayloadDiff.NO_CHANGE);
        assertThat(PayloadDiff.between("{\"a\":1,\"b\":2}", "{ \"b\": 2,\n \"a\": 1 }"))
                .isEqualTo("no change but layout (whitespace or key order)");
        assertThat(PayloadDiff.between("[1]", "{\"a\":[1]}")).isEqualTo("/: [1] → {\"a\":[1]}");
    }

    @Test
    void anythingButJsonIsDiffedAsText() {
        assertThat(PayloadDiff.between("k1|amount=10|EUR", "k1|amount=12|EUR"))
                .isEqualTo("text at character 11: \"0\" → \"2\"");
        assertThat(PayloadDiff.between("{\"a\":1", "{\"a\":2")).startsWith("text at character 5");
    }

    @Test
    void aHugeDiffIsBoundedAndSaysHowManyChangesWereLeftOut() {
        String before = IntStream.range(0, 2_000)
                .mapToObj(i -> "\"f" + i + "\":\"" + "x".repeat(300) + "\"")
                .collect(Collectors.joining(",", "{", "}"));
        String after = before.replace("x", "y");

        String diff = PayloadDiff.between(before, after);

        assertThat(diff.length()).isLessThanOrEqualTo(PayloadDiff.MAX_CHARS);
        assertThat(diff).startsWith("/f0: \"xxx").contains("… → \"yyy").matches("(?s).*; … and \\d+ more changes$");
        int shown = diff.split("; /").length;
        assertThat(diff).endsWith("and " + (2_000 - shown) + " more changes");
    }

    @Test
    void theValuesOfSensitiveFieldsAreNeverInTheDiffOnlyThatTheyChanged() {
        String before = "{\"customer\":{\"email\":\"ada@example.com\",\"name\":\"Ada\"},\"total\":10,"
                + "\"cards\":[{\"pan\":\"4111\"}]}";
        String after = "{\"customer\":{\"email\":\"ada@example.org\",\"name\":\"Ada\"},\"total\":12,"
                + "\"cards\":[{\"pan\":\"4242\"}]}";
        Set<String> sensitive = Set.of("$.customer.email", "$.customer.name", "$.cards[0].pan");

        String diff = PayloadDiff.between(before, after, sensitive);

        assertThat(diff)
                .isEqualTo("/customer/email: [redacted] → [redacted]; /total: 10 → 12; /cards/0/pan: [redacted] → "
                        + "[redacted]")
                .doesNotContain("ada@", "4111", "4242");
    }

    @Test
    void aChangedParentOfASensitiveFieldIsMaskedWhole() {
        String before = "{\"customer\":{\"email\":\"ada@example.com\"},\"total\":10}";
        String after = "{\"total\":10}";

        assertThat(PayloadDiff.between(before, after, Set.of("$.customer.email")))
                .isEqualTo("/customer: [redacted] → (absent)");
    }

    @Test
    void aPayloadWhoseSensitiveFieldsCannotBeToldApartShowsWhereNotWhat() {
        assertThat(PayloadDiff.between("{\"a\":\"secret-1\"}", "{\"a\":\"secret-2\"}", Set.of(PayloadDiff.WHOLE)))
                .isEqualTo("/a: [redacted] → [redacted]");
        assertThat(PayloadDiff.between("k1|pin=1234", "k1|pin=9876", Set.of(PayloadDiff.WHOLE)))
                .isEqualTo("text at character 7 (values not shown: the payload's sensitive fields cannot be told "
                        + "apart)");
    }
}
