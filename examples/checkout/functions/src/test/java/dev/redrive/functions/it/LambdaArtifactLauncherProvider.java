package dev.redrive.functions.it;

import io.quarkus.test.common.ArtifactLauncher;
import io.quarkus.test.junit.launcher.ArtifactLauncherProvider;
import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the packaged artifact for {@code @QuarkusIntegrationTest}s the way Lambda starts it: the JVM jar as the
 * {@code java21} runtime does (see {@link RuntimeInterfaceClientLauncher}), the native executable ({@code -Pnative}) as
 * {@code provided.al2023} runs its {@code bootstrap} (see {@link NativeBinaryLauncher}). Found by {@code ServiceLoader}
 * before Quarkus' own launchers (test classes come first on the class path): its jar launcher would run {@code java
 * -jar} and get an app that never polls (Quarkus starts its Lambda poll loop only in a native image or in dev and test
 * mode), and its native launcher does not hand the binary's standard output to the test, where the EMF lines are.
 */
public final class LambdaArtifactLauncherProvider implements ArtifactLauncherProvider {

    @Override
    public boolean supportsArtifactType(String type, String testProfile) {
        return "jar".equals(type) || "native".equals(type);
    }

    @Override
    public ArtifactLauncher<? extends ArtifactLauncher.InitContext> create(CreateContext context) {
        Path artifact = context.buildOutputDirectory()
                .resolve(context.quarkusArtifactProperties().getProperty("path"));
        Map<String, String> devServices = context.devServicesLaunchResult().properties();
        if ("native".equals(context.quarkusArtifactProperties().getProperty("type"))) {
            return new NativeBinaryLauncher(artifact, context.buildOutputDirectory(), devServices);
        }
        return new RuntimeInterfaceClientLauncher(artifact, context.buildOutputDirectory(), devServices);
    }
}
