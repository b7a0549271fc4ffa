package dev.redrive.functions.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.redrive.checkout.EventSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;
import org.junit.jupiter.api.Test;

/**
 * The cold start fails the function's start when an event schema is not in the artifact (as in a native image built
 * without the schemas as resources), instead of failing every message later as TRANSIENT.
 */
class ColdStartTest {

    @Test
    void withEverySchemaInTheArtifactTheStartGoesOn() {
        assertThatCode(() -> new ColdStart().warm(null, null, new EventSchemas()))
                .doesNotThrowAnyException();
    }

    @Test
    void aSchemaMissingFromTheArtifactFailsTheStartNamingIt() throws Exception {
        try (ArtifactWithoutSchemas artifact = new ArtifactWithoutSchemas()) {
            Class<?> coldStart = artifact.loadClass(ColdStart.class.getName());
            Class<?> schemas = artifact.loadClass(EventSchemas.class.getName());
            Method warm = coldStart.getDeclaredMethod(
                    "warm",
                    io.quarkus.runtime.StartupEvent.class,
                    dev.redrive.core.consumer.BatchProcessor.class,
                    schemas);
            warm.setAccessible(true);

            Throwable failure = null;
            try {
                warm.invoke(
                        coldStart.getDeclaredConstructor().newInstance(),
                        null,
                        null,
                        schemas.getDeclaredConstructor().newInstance());
            } catch (InvocationTargetException e) {
                failure = e.getCause();
            }

            assertThat(failure)
                    .as("the start must fail")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("schemas/OrderPlaced/v2.json")
                    .hasMessageContaining("schemas/OrderPlaced/v1.json")
                    .hasMessageContaining("not in the artifact");
        }
    }

    /**
     * The functions' and checkout's classes, loaded again so that {@code EventSchemas} reads its resources through
     * this loader, which hides {@code schemas/}: what a native image without the schemas looks like to the code.
     */
    static final class ArtifactWithoutSchemas extends URLClassLoader {

        ArtifactWithoutSchemas() {
            super(
                    new URL[] {location(ColdStart.class), location(EventSchemas.class)},
                    ColdStartTest.class.getClassLoader());
        }

        private static URL location(Class<?> c) {
            return c.getProtectionDomain().getCodeSource().getLocation();
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            boolean own = name.startsWith("dev.redrive.checkout.") || name.equals(ColdStart.class.getName());
            if (!own) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(String name) {
            return name.startsWith("schemas/") ? null : super.getResource(name);
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            return name.startsWith("schemas/") ? null : super.getResourceAsStream(name);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return name.startsWith("schemas/") ? Collections.emptyEnumeration() : super.getResources(name);
        }
    }
}
