package dev.redrive.infra.consumer;

import dev.redrive.core.names.RedriveNames.Dependencies;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.schema.ContractFiles;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.EventContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The routes of the checkout's consumers, from the same declaration the consumers read (the example's
 * {@code contracts/}, {@code schemas/} and {@code upcasters/} files of its domain module, read from
 * {@code examples/checkout/domain/src/main/resources} at synth): each consumer's queues by name, its
 * {@code OrderPlaced} contract, and the email's breaker. The same pointers go into each consumer's environment.
 */
public final class CheckoutRoutes {

    /** The event type every checkout consumer reads. */
    public static final String EVENT_TYPE = "OrderPlaced";

    /** Where the declaration is inside the repository. */
    static final Path DECLARATION_IN_REPOSITORY = Path.of("examples/checkout/domain/src/main/resources");

    /** The consumer environment's names of the contract's pointers. */
    public static final String KEY_POINTER = "REDRIVE_CONTRACT_KEY_POINTER";

    public static final String TYPE_POINTER = "REDRIVE_CONTRACT_EVENT_TYPE_POINTER";
    public static final String VERSION_POINTER = "REDRIVE_CONTRACT_VERSION_POINTER";

    private CheckoutRoutes() {}

    /** The route of {@code consumer}. */
    public static DeclaredRoute route(IdempotentConsumer consumer) {
        EventContract contract = contract(consumer.name());
        Optional<String> breaker = Handlers.CONFIRMATION_EMAIL.equals(consumer.name())
                ? Optional.of(Dependencies.EMAIL_PROVIDER)
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
        return ContractFiles.read(consumer, EVENT_TYPE, ContractFiles.directory(declaration()));
    }

    /**
     * The declaration's folder, found from the working directory up (the CDK app runs in {@code
     * examples/checkout/infra}, {@code bin/redrive-local} at the repository's root, the local run's tests in {@code
     * tooling/localrun}).
     */
    public static Path declaration() {
        Path start = Path.of("").toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(DECLARATION_IN_REPOSITORY);
            if (Files.isDirectory(candidate.resolve("contracts"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("the checkout's event contract (" + DECLARATION_IN_REPOSITORY
                + "/contracts) is in no folder from " + start + " up: synthesize inside the Redrive repository");
    }
}
