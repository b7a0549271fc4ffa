package dev.redrive.checkout;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.schema.UpcasterChain;
import dev.redrive.schema.ContractSchemaGate;
import dev.redrive.schema.Upcasters;
import java.util.Map;
import java.util.Set;

/**
 * The schema check of a replay for the checkout consumers, which all read {@code OrderPlaced} at
 * {@value OrderPlaced#CURRENT_VERSION}: the generic {@link ContractSchemaGate} over the consumers' own
 * {@link OrderPlacedReader} (the declared contract with the event id and amount rules), whatever the consumer's name.
 * A replay passes exactly what a first delivery would. The sweeper and the CLI build the same gate from the routes
 * document, without this class.
 */
public final class CheckoutSchemaGate implements SchemaGate {

    private final OrderPlacedReader reader;

    /** {@code upcasters} are the declared ones ({@link #upcasters()}): the contract carries them. */
    public CheckoutSchemaGate(ObjectMapper json, EventSchemas schemas, UpcasterChain upcasters) {
        this.reader = new OrderPlacedReader(json, schemas);
    }

    /** The chain of every upcaster the checkout declares (its JSON Patches). */
    public static UpcasterChain upcasters() {
        return Upcasters.chain(CheckoutContracts.orderPlaced("checkout"), java.util.List.of());
    }

    @Override
    public Verdict check(String consumer, String body) {
        return gate(consumer).check(consumer, body);
    }

    @Override
    public Set<String> sensitivePaths(String consumer, String body) {
        return gate(consumer).sensitivePaths(consumer, body);
    }

    private ContractSchemaGate gate(String consumer) {
        return new ContractSchemaGate(Map.of(consumer, reader.contractReader()));
    }
}
