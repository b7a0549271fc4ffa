package dev.redrive.core.sweeper;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.testing.sweeper.DeadLetterSourceContract;
import dev.redrive.testing.sweeper.InMemoryDeadLetterSource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

class InMemoryDeadLetterSourceTest extends DeadLetterSourceContract {
    private final InMemoryDeadLetterSource dlq = new InMemoryDeadLetterSource();

    @Override
    protected DeadLetterSource newSource() {
        return dlq;
    }

    @Override
    protected String newDeadLetterQueue() {
        return "dlq-" + UUID.randomUUID();
    }

    @Override
    protected void arrive(
            String queue, String body, Map<String, MessageAttribute> attributes, Optional<ReplayMarker> marker) {
        String id = UUID.randomUUID().toString();
        dlq.add(
                queue,
                new ArrivedDeadLetter(id, "rh-" + id, body, attributes, 1, Instant.now(), Optional.empty(), marker));
    }

    @Override
    protected List<ArrivedDeadLetter> receiveAfterTheVisibilityTimeout(String queue) {
        dlq.redeliverUndeleted();
        return dlq.receive(queue);
    }
}
