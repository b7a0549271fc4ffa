package dev.redrive.functions.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.schema.RoutesDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The routes document the tests' sweeper reads ({@code %test.redrive.routes}) is the checkout's declaration, not a copy
 * that could drift: {@code -Dredrive.routes.write=true} rewrites it from {@link CheckoutContracts}.
 */
class CheckoutRoutesFileTest {

    static final Path FILE = Path.of("src/test/resources/checkout-routes.json");

    static RoutesDocument declared() {
        return new RoutesDocument(List.of(CheckoutContracts.route(
                ConfirmationEmailConsumer.NAME,
                "order-placed-email",
                "order-placed-email-dlq",
                ConfirmationEmailConsumer.DEPENDENCY)));
    }

    @Test
    void theTestRoutesAreTheDeclaredOnes() throws Exception {
        ObjectMapper json = new ObjectMapper();
        String declared = declared().toJson();
        if (Boolean.getBoolean("redrive.routes.write")) {
            Files.writeString(FILE, json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(declared)));
        }

        assertThat(json.readTree(Files.readString(FILE))).isEqualTo(json.readTree(declared));
        assertThat(RoutesDocument.load(FILE.toString(), (b, k) -> {
                            throw new AssertionError("not S3");
                        })
                        .routes())
                .isEqualTo(declared().routes());
    }
}
