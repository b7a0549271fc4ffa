package dev.redrive.functions.lambda;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The EMF classes Jackson serializes by reflection, registered for the native image: {@code redrive-lambda}'s
 * {@link dev.redrive.lambda.EmfOutput#REFLECTED_CLASSES} (an annotation takes only constants;
 * {@code EmfReflectionTest} checks the two lists are the same, NativeClassPathIT that each is registered).
 */
@RegisterForReflection(
        classNames = {
            "software.amazon.cloudwatchlogs.emf.model.RootNode",
            "software.amazon.cloudwatchlogs.emf.model.Metadata",
            "software.amazon.cloudwatchlogs.emf.model.MetricDirective",
            "software.amazon.cloudwatchlogs.emf.model.MetricDefinition",
            "software.amazon.cloudwatchlogs.emf.model.DimensionSet",
            "software.amazon.cloudwatchlogs.emf.model.Unit",
            "software.amazon.cloudwatchlogs.emf.model.StorageResolution",
            "software.amazon.cloudwatchlogs.emf.serializers.InstantSerializer",
            "software.amazon.cloudwatchlogs.emf.serializers.InstantDeserializer",
            "software.amazon.cloudwatchlogs.emf.serializers.UnitSerializer",
            "software.amazon.cloudwatchlogs.emf.serializers.UnitDeserializer",
            "software.amazon.cloudwatchlogs.emf.serializers.StorageResolutionSerializer",
            "software.amazon.cloudwatchlogs.emf.serializers.StorageResolutionFilter"
        })
public final class EmfReflection {
    private EmfReflection() {}
}
