package dev.redrive.lambda.internal;

import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.ExternalEffectConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.consumer.TransactionalEffectConsumer;
import dev.redrive.lambda.ExternalEffect;
import dev.redrive.lambda.MessageReader;
import dev.redrive.lambda.TransactionalEffect;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/** The core's consumers made of a name, a {@link MessageReader} and an effect (what {@code Redrive} builds). */
public final class ReaderConsumers {

    private ReaderConsumers() {}

    /** An external effect's consumer. */
    public record External<E>(String name, MessageReader<E> reader, ExternalEffect<E> effect)
            implements ExternalEffectConsumer<E> {

        public External {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(reader, "reader");
            Objects.requireNonNull(effect, "effect");
        }

        @Override
        public ParsedMessage<E> parse(IncomingMessage message) {
            return reader.read(message);
        }

        @Override
        public String apply(E event, EffectContext context) throws Exception {
            return effect.apply(event, context);
        }
    }

    /** A transactional effect's consumer: its writes commit with the claim. */
    public record Transactional<E>(String name, MessageReader<E> reader, TransactionalEffect<E> effect)
            implements TransactionalEffectConsumer<E, TransactWriteItem> {

        public Transactional {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(reader, "reader");
            Objects.requireNonNull(effect, "effect");
        }

        @Override
        public ParsedMessage<E> parse(IncomingMessage message) {
            return reader.read(message);
        }

        @Override
        public List<TransactWriteItem> effectWrites(E event, EffectContext context) {
            return effect.writes(event, context);
        }
    }
}
