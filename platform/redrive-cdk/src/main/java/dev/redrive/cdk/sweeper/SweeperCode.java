package dev.redrive.cdk.sweeper;

import dev.redrive.cdk.function.FunctionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;

/**
 * The sweeper function's own code: {@code redrive-sweeper}'s self-contained jar (classifier {@code lambda}), which
 * holds no consumer's code. A CDK app declares it as a dependency and the construct finds it on the app's class path
 * ({@link #fromClassPath()}), or is given its path ({@link #fromJar(Path)}). Either way it is checked at synth: a thin
 * jar or another file fails the synth, not every sweep.
 *
 * <pre>{@code
 * <dependency>
 *   <groupId>dev.redrive</groupId>
 *   <artifactId>redrive-sweeper</artifactId>
 *   <classifier>lambda</classifier>
 * </dependency>
 * }</pre>
 */
public final class SweeperCode {

    /** The Lambda handler of the sweeper's jar. */
    public static final String HANDLER = "dev.redrive.sweeper.DeadLetterSweeperHandler::handleRequest";

    /** A resource only the sweeper's jars hold: how the class path is searched for it. */
    public static final String MARKER = "META-INF/redrive/sweeper-function";

    static final String HANDLER_CLASS = "dev/redrive/sweeper/DeadLetterSweeperHandler.class";
    /** A class of the AWS SDK: present in the self-contained jar only. */
    static final String SDK_CLASS = "software/amazon/awssdk/services/dynamodb/DynamoDbClient.class";

    private final Path jar;

    private SweeperCode(Path jar) {
        this.jar = jar;
    }

    /** The sweeper jar at {@code jar}. */
    public static SweeperCode fromJar(Path jar) {
        Path file = jar.toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("the sweeper's code " + file + " does not exist: build redrive-sweeper "
                    + "(it writes target/redrive-sweeper-<version>-lambda.jar) or depend on "
                    + "dev.redrive:redrive-sweeper:<version>:lambda");
        }
        try (JarFile contents = new JarFile(file.toFile())) {
            if (contents.getEntry(HANDLER_CLASS) == null) {
                throw new IllegalArgumentException(
                        "the sweeper's code " + file + " holds no " + HANDLER + ": it is not redrive-sweeper's jar");
            }
            if (contents.getEntry(SDK_CLASS) == null) {
                throw new IllegalArgumentException("the sweeper's code " + file + " is redrive-sweeper's thin jar, "
                        + "without its dependencies: use the self-contained one, classifier lambda");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("the sweeper's code " + file + " is not a jar: " + e.getMessage(), e);
        }
        return new SweeperCode(file);
    }

    /** The self-contained sweeper jar on this app's class path (the dependency of classifier {@code lambda}). */
    public static SweeperCode fromClassPath() {
        List<Path> candidates = new ArrayList<>();
        try {
            for (URL url : Collections.list(SweeperCode.class.getClassLoader().getResources(MARKER))) {
                if ("jar".equals(url.getProtocol())) {
                    String file = url.getPath().substring(0, url.getPath().indexOf("!/"));
                    candidates.add(Path.of(new URL(file).toURI()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot search the class path for " + MARKER, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<String> thin = new ArrayList<>();
        for (Path candidate : candidates) {
            try {
                return fromJar(candidate);
            } catch (IllegalArgumentException notSelfContained) {
                thin.add(candidate.toString());
            }
        }
        throw new IllegalArgumentException("no self-contained sweeper jar is on the CDK app's class path"
                + (thin.isEmpty() ? "" : " (only " + String.join(", ", thin) + ")")
                + ": add the dependency dev.redrive:redrive-sweeper with <classifier>lambda</classifier>, or pass "
                + "SweeperCode.fromJar(path)");
    }

    /** Where the jar is. */
    public Path jar() {
        return jar;
    }

    /** Makes the sweeper's function from this jar on the JVM runtime, on {@code architecture}. */
    public FunctionFactory functions(Architecture architecture) {
        return FunctionFactory.plain(Code.fromAsset(jar.toString()), HANDLER, architecture);
    }
}
