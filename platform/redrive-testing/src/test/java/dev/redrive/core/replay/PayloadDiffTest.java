package dev.redrive.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

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
}
