package dev.redrive.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.schema.Upcaster;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Java upcaster registered for the ServiceLoader is the code extension point beside the declared patches. */
class SpiUpcasterTest {

    /** Registered in META-INF/services of the test class path: AuditEntry v1 to v2 (which no route patch declares). */
    public static final class AuditV1ToV2 implements Upcaster {
        @Override
        public String eventType() {
            return "AuditEntry";
        }

        @Override
        public int fromVersion() {
            return 1;
        }

        @Override
        public Map<String, Object> upcast(Map<String, Object> event) {
            Map<String, Object> v2 = new LinkedHashMap<>(event);
            v2.put("action", v2.remove("what"));
            v2.put("v", 2);
            return v2;
        }
    }

    static final String ROUTES = "{\"version\":1,\"routes\":[{\"consumer\":\"audit\",\"sourceQueue\":\"a\","
            + "\"deadLetterQueue\":\"a-dlq\",\"key\":{\"pointer\":\"/id\"},\"version\":{\"pointer\":\"/v\"},"
            + "\"schemas\":{\"AuditEntry\":{"
            + "\"1\":{\"type\":\"object\",\"required\":[\"id\",\"what\"]},"
            + "\"2\":{\"type\":\"object\",\"required\":[\"id\",\"action\"]}}}}]}";

    @Test
    void theServiceLoaderFindsAJavaUpcasterForADeclaredType() {
        ContractReader reader = RoutesDocument.parse(ROUTES).readers().get("audit");

        assertThat(reader.parse(Fixtures.message("{\"id\":\"a-1\",\"v\":1,\"what\":\"login\"}"))
                        .canonicalPayload())
                .isEqualTo("{\"action\":\"login\",\"id\":\"a-1\",\"v\":2}");
    }

    @Test
    void aStepDeclaredBothAsAPatchAndInJavaIsRefused() {
        String both = ROUTES.replace(
                "}}}}]}",
                "}}},\"upcasters\":{\"AuditEntry\":{\"1\":[{\"op\":\"add\",\"path\":\"/action\",\"value\":1}]}}}]}");

        assertThatThrownBy(() -> RoutesDocument.parse(both).readers())
                .hasMessageContaining("two upcasters for AuditEntry v1");
    }
}
