package dev.redrive.localrun.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProviderCallTimelineTest {

    @Test
    void callsAreCountedPerWholeSecondAndTheirPeaksOverConsecutiveSeconds() {
        AtomicLong calls = new AtomicLong(100); // what came before the start does not count
        ProviderCallTimeline timeline = new ProviderCallTimeline(calls::get).start();
        calls.addAndGet(7);
        await().atMost(Duration.ofSeconds(10)).until(() -> timeline.perSecond().size() >= 2);
        calls.addAndGet(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> timeline.perSecond().size() >= 3);
        timeline.close();

        List<Long> perSecond = timeline.perSecond();
        assertThat(perSecond.stream().mapToLong(Long::longValue).sum()).isEqualTo(10);
        assertThat(perSecond.get(0)).isEqualTo(7);
        assertThat(timeline.peak(1)).isEqualTo(7);
        assertThat(timeline.peak(5)).isEqualTo(10);
        assertThat(timeline.figures()).containsEntry("calls", 10L).containsEntry("most in one second", 7L);
    }
}
