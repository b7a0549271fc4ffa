package dev.redrive.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.testing.replay.RecordingReplaySender;
import dev.redrive.testing.replay.ReplaySenderContract;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RecordingReplaySenderTest extends ReplaySenderContract {
    private final RecordingReplaySender recording = new RecordingReplaySender();

    @Override
    protected ReplaySender newSender() {
        return recording;
    }

    @Override
    protected String newQueue() {
        return "q-" + UUID.randomUUID();
    }

    @Override
    protected List<Received> received(String queue) {
        return recording.sent().stream()
                .filter(s -> s.queue().equals(queue))
                .map(s -> new Received(s.messageId(), s.body(), s.attributes()))
                .toList();
    }

    @Test
    void eachSendAllCountsAsOneBatch() {
        recording.sendAll(
                "q", List.of(new ReplaySender.Outgoing("a", Map.of()), new ReplaySender.Outgoing("b", Map.of())));

        assertThat(recording.batches()).isEqualTo(1);
    }
}
