package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FencingJournalTest {

    @Test
    void anEffectSentWithinItsLeaseUnderTheHighestTokenIsNotStale() {
        FencingJournal j = new FencingJournal();
        j.granted("k", 1, 10_000);
        String why = j.effectCall("k", 1, 9_000, 8_000);
        j.effectAccepted("k", 1, 9_000, 8_000, why);
        assertThat(why).isNull();
        assertThat(j.staleAccepted()).isEmpty();
        assertThat(j.lateEffectCalls()).isEmpty();
    }

    @Test
    void anEffectSentAfterItsLeaseEndedAndAcceptedIsAStaleWriteAccepted() {
        FencingJournal j = new FencingJournal();
        j.granted("k", 1, 10_000);
        String why = j.effectCall("k", 1, 10_500, 9_000);
        j.effectAccepted("k", 1, 10_500, 9_000, why);
        assertThat(why)
                .contains("arrived 500 ms after the lease of token 1 ended")
                .contains("signed at most 1000 ms before its lease ended");
        assertThat(j.staleAccepted())
                .singleElement()
                .satisfies(s -> assertThat(s.token()).isEqualTo(1));
    }

    @Test
    void anEffectUnderASupersededTokenIsStaleAndCountsAsAcceptedOnlyWhenAwsTookIt() {
        FencingJournal j = new FencingJournal();
        j.granted("k", 1, 10_000);
        j.granted("k", 2, 30_000);
        String why = j.effectCall("k", 1, 5_000, -1);
        assertThat(why).contains("superseded by 2");
        assertThat(j.lateEffectCalls()).hasSize(1);
        assertThat(j.staleAccepted()).as("refused by AWS (a 412, say)").isEmpty();
        j.effectAccepted("k", 1, 5_000, -1, why);
        assertThat(j.staleAccepted()).hasSize(1);
    }

    @Test
    void aLateCallSaysWhetherItWasSignedInsideItsLeaseOrAfterIt() {
        FencingJournal j = new FencingJournal();
        j.granted("k", 1, 10_000);
        j.effectCall("k", 1, 13_000, 12_000);
        assertThat(j.lateEffectCalls()).singleElement().satisfies(late -> {
            assertThat(late.signedAtMillis()).isEqualTo(12_000);
            assertThat(late.why())
                    .isEqualTo("arrived 3000 ms after the lease of token 1 ended; signed at least 2000 ms after"
                            + " its lease ended");
        });
    }

    @Test
    void theSigningTimeIsTheSandboxsXAmzDateToTheSecond() {
        AwsTrafficProxy.Call signed = new AwsTrafficProxy.Call(
                "s3", "PUT", "/b/k", null, Map.of("x-amz-date", "20261207T065300Z"), new byte[0]);
        AwsTrafficProxy.Call unsigned = new AwsTrafficProxy.Call("s3", "PUT", "/b/k", null, Map.of(), new byte[0]);
        AwsTrafficProxy.Call garbled =
                new AwsTrafficProxy.Call("s3", "PUT", "/b/k", null, Map.of("x-amz-date", "yesterday"), new byte[0]);
        assertThat(SandboxFaults.signedAt(signed))
                .isEqualTo(Instant.parse("2026-12-07T06:53:00Z").toEpochMilli());
        assertThat(SandboxFaults.signedAt(unsigned)).isEqualTo(-1);
        assertThat(SandboxFaults.signedAt(garbled)).isEqualTo(-1);
    }

    @Test
    void completedKeysAreCountedPerConsumerPrefix() {
        FencingJournal j = new FencingJournal();
        j.completed("confirmation-email#a");
        j.completed("confirmation-email#a");
        j.completed("confirmation-email#b");
        j.completed("revenue-analytics#a");
        assertThat(j.completedKeys("confirmation-email#")).isEqualTo(2);
        assertThat(j.completedKeys("revenue-analytics#")).isEqualTo(1);
        assertThat(j.completions()).isEqualTo(4);
    }
}
