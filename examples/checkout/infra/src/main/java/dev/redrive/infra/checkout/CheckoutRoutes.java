package dev.redrive.infra.checkout;

import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.schema.ContractFiles;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.EventContract;
import java.util.Optional;

/**
 * The routes of the checkout's consumers, from the same declaration the consumers read (the {@code contracts/},
 * {@code schemas/} and {@code upcasters/} files of {@code redrive-checkout-contract}, read from the class path): each consumer's queues by name, its
 * {@code OrderPlaced} contract, and the email's breaker. The same pointers go into each consumer's environment.
 */
public final class CheckoutRoutes {

    /** The event type every checkout consumer reads. */
    public static final String EVENT_TYPE = "OrderPlaced";

    /** The consumer environment's names of the contract's pointers. */
    public static final String KEY_POINTER = "REDRIVE_CONTRACT_KEY_POINTER";

    public static final String TYPE_POINTER = "REDRIVE_CONTRACT_EVENT_TYPE_POINTER";
    public static final String VERSION_POINTER = "REDRIVE_CONTRACT_VERSION_POINTER";

    private CheckoutRoutes() {}

    /** The route of {@code consumer}. */
    public static DeclaredRoute route(IdempotentConsumer consumer) {
        EventContract contract = contract(consumer.name());
        Optional<String> breaker = CheckoutNames.CONFIRMATION_EMAIL.equals(consumer.name())
                ? Optional.of(CheckoutNames.EMAIL_PROVIDER)
                : Optional.empty();
        if (contract.key().pointer() != null) {
            consumer.function().addEnvironment(KEY_POINTER, contract.key().pointer());
        }
        contract.typePointer().ifPresent(p -> consumer.function().addEnvironment(TYPE_POINTER, p));
        contract.versionPointer().ifPresent(p -> consumer.function().addEnvironment(VERSION_POINTER, p));
        return new DeclaredRoute(
                consumer.name(),
                consumer.sourceQueueName(),
                consumer.deadLetterQueueName(),
                Optional.of(contract),
                breaker);
    }

    /** The {@code OrderPlaced} contract of {@code consumer}, as declared. */
    public static EventContract contract(String consumer) {
        return ContractFiles.read(consumer, EVENT_TYPE, ContractFiles.classpath(CheckoutNames.class));
    }
}
