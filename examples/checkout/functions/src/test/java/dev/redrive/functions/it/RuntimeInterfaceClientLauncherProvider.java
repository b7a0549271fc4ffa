package dev.redrive.functions.it;

import io.quarkus.test.common.ArtifactLauncher;
import io.quarkus.test.junit.launcher.ArtifactLauncherProvider;
import java.nio.file.Path;

/**
 * Starts the packaged JVM artifact for {@code @QuarkusIntegrationTest}s the way Lambda's {@code java21} runtime does
 * (see {@link RuntimeInterfaceClientLauncher}). Found by {@code ServiceLoader} before Quarkus' own jar launcher (test
 * classes come first on the class path), which would run {@code java -jar} and get an app that never polls: Quarkus
 * starts its Lambda poll loop only in a native image or in dev and test mode. A native artifact ({@code -Pnative}) is
 * left to Quarkus' native launcher, since the binary polls the Runtime API itself.
 */
public final class RuntimeInterfaceClientLauncherProvider implements ArtifactLauncherProvider {

    @Override
    public boolean supportsArtifactType(String type, String testProfile) {
        return "jar".equals(type);
    }

    @Override
    public ArtifactLauncher<? extends ArtifactLauncher.InitContext> create(CreateContext context) {
        Path jar = context.buildOutputDirectory()
                .resolve(context.quarkusArtifactProperties().getProperty("path"));
        return new RuntimeInterfaceClientLauncher(
                jar,
                context.buildOutputDirectory(),
                context.devServicesLaunchResult().properties());
    }
}
