package dev.redrive.quarkus.deployment;

import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.quarkus.IdempotentSqsHandler;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.quarkus.SnapStartPriming;
import dev.redrive.quarkus.internal.ConsumerProducers;
import dev.redrive.quarkus.internal.PlatformClientsProducers;
import dev.redrive.quarkus.internal.StartupChecks;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.IndexDependencyBuildItem;
import io.quarkus.deployment.builditem.RemovedResourceBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourcePatternsBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.maven.dependency.ArtifactKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The build steps of the Redrive extension: its feature, its beans and configuration mapping, the index of
 * {@code redrive-lambda} (handlers extend its {@code SqsConsumerHandler}), and what a native image must be told: the
 * classes Jackson serializes by reflection, the contract resources consumers read from the class path, and the
 * quarkus-amazon-common class the runtime's checksum substitution replaces.
 */
class RedriveProcessor {

    static final String FEATURE = "redrive";

    /** The contract files a consumer reads from its class path: {@code ContractFiles.classpath}'s layout. */
    static final List<String> CONTRACT_RESOURCES = List.of("contracts/**", "schemas/**", "upcasters/**");

    /**
     * quarkus-amazon-services 3.14.1's substitution of the SDK's {@code CrcChecksumProvider}, a class SDK 2.42 renamed:
     * native-image stops on it. The runtime's {@code ChecksumProviderSubstitution} replaces it.
     */
    static final String STALE_CRC_SUBSTITUTION =
            "io/quarkiverse/amazon/common/runtime/CrtSubstitutions$Target_CrcChecksumProvider.class";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    AdditionalBeanBuildItem beans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(
                        ConsumerProducers.class,
                        PlatformClientsProducers.class,
                        StartupChecks.class,
                        SnapStartPriming.class)
                .setUnremovable()
                .build();
    }

    /**
     * What Quarkus must find in its index, which holds an extension's runtime classes only when told to: the
     * configuration mapping (Quarkus makes each {@code @ConfigMapping} it finds a bean) and the handler base (the Lambda
     * extension finds a {@code @Named} handler by its class hierarchy).
     */
    @BuildStep
    AdditionalIndexedClassesBuildItem indexed() {
        return new AdditionalIndexedClassesBuildItem(java.util.stream.Stream.concat(
                        java.util.stream.Stream.of(RedriveConfig.class, IdempotentSqsHandler.class),
                        Arrays.stream(RedriveConfig.class.getDeclaredClasses()))
                .map(Class::getName)
                .toArray(String[]::new));
    }

    /** A handler extending {@code SqsConsumerHandler} is found in Quarkus' index only if redrive-lambda is in it. */
    @BuildStep
    IndexDependencyBuildItem indexLambdaGlue() {
        return new IndexDependencyBuildItem("dev.redrive", "redrive-lambda");
    }

    @BuildStep
    ReflectiveClassBuildItem reflection() {
        List<String> classes = new ArrayList<>(EmfOutput.REFLECTED_CLASSES);
        classes.add(DeadLetterMetadata.class.getName());
        return ReflectiveClassBuildItem.builder(classes.toArray(String[]::new))
                .constructors()
                .methods()
                .fields()
                .reason("Redrive: EMF metrics and dead-letter metadata are serialized by Jackson")
                .build();
    }

    @BuildStep
    NativeImageResourcePatternsBuildItem contractResources() {
        return NativeImageResourcePatternsBuildItem.builder()
                .includeGlobs(CONTRACT_RESOURCES)
                .build();
    }

    @BuildStep
    RemovedResourceBuildItem staleChecksumSubstitution() {
        return new RemovedResourceBuildItem(
                ArtifactKey.fromString("io.quarkiverse.amazonservices:quarkus-amazon-common"),
                Set.of(STALE_CRC_SUBSTITUTION));
    }
}
