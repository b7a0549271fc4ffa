package dev.redrive.functions.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.lambda.EmfOutput;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.junit.jupiter.api.Test;

class EmfReflectionTest {

    @Test
    void theNativeRegistrationsAreTheEmfClassesRedriveLambdaNames() {
        assertThat(EmfReflection.class
                        .getAnnotation(RegisterForReflection.class)
                        .classNames())
                .containsExactlyInAnyOrderElementsOf(EmfOutput.REFLECTED_CLASSES);
    }
}
