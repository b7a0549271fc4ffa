package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.schema.Upcaster;
import dev.redrive.core.schema.UpcasterChain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SortedMap;

/**
 * The upcasters of a contract: its declared JSON Patches, and the Java {@link Upcaster}s registered for the
 * {@link ServiceLoader} ({@code META-INF/services/dev.redrive.core.schema.Upcaster}), the code extension point for a
 * migration a patch cannot say. A step declared both ways is refused: which one runs would be an accident.
 */
public final class Upcasters {

    private Upcasters() {}

    /** The Java upcasters {@code loader} finds for the {@link ServiceLoader}. */
    public static List<Upcaster> registered(ClassLoader loader) {
        List<Upcaster> found = new ArrayList<>();
        ServiceLoader.load(Upcaster.class, loader).forEach(found::add);
        return found;
    }

    /** The declared patches as upcasters. */
    public static List<Upcaster> patches(Map<String, SortedMap<Integer, JsonNode>> patches) {
        List<Upcaster> steps = new ArrayList<>();
        patches.forEach((type, byVersion) ->
                byVersion.forEach((from, patch) -> steps.add(new JsonPatchUpcaster(type, from, patch))));
        return steps;
    }

    /**
     * The chain of {@code contract}'s patches and of those {@code java} upcasters that are for a type it declares.
     *
     * @throws IllegalArgumentException when a step is declared twice
     */
    public static UpcasterChain chain(EventContract contract, List<Upcaster> java) {
        List<Upcaster> steps = new ArrayList<>(patches(contract.patches()));
        for (Upcaster u : java) {
            if (contract.schemas().containsKey(u.eventType())) {
                steps.add(u);
            }
        }
        return new UpcasterChain(steps);
    }
}
