package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FencingJournalTest {

    @Test
    void anEffectSentWithinItsLeaseUnderTheHighestTokenIsNotStale() {
        FencingJournal j = new FencingJournal();
        j.granted("k", 1, 10_000);
        String why = j.effectCall("k", 1, 9_000);
        j.effectAccepted("k", 1, 9_000, why);
        assertThat(why).isNull();
        assertThat(j.staleAccepted()).isEmpty();
        assertThat(j.lateEffectCalls()).isEmpty();
    }

    @Test
    void anEffectSentAfterItsLeaseEndedAndAcceptedIsAStaleWriteAccepted() {
        FencingJournal j = new FencingJournal();
        j.granted("k", 1, 10_000);
        String why = j.effectCall("k", 1, 10_500);
        j.effectAccepted("k", 1, 10_500, why);
        assertThat(why).contains("after the lease of token 1 ended");
        assertThat(j.staleAccepted())
                .singleElement()
                .satisfies(s -> assertThat(s.token()).isEqualTo(1));
    }

    @Test
    void anEffectUnderASupersededTokenIsStaleAndCountsAsAcceptedOnlyWhenAwsTookIt() {
        FencingJournal j = new FencingJournal();
        j.granted("k", 1, 10_000);
        j.granted("k", 2, 30_000);
        String why = j.effectCall("k", 1, 5_000);
        assertThat(why).contains("superseded by 2");
        assertThat(j.lateEffectCalls()).hasSize(1);
        assertThat(j.staleAccepted()).as("refused by AWS (a 412, say)").isEmpty();
        j.effectAccepted("k", 1, 5_000, why);
        assertThat(j.staleAccepted()).hasSize(1);
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
