package dev.redrive.testing.localaws;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit 5 test class local AWS: the {@link LocalAws#shared() shared} instance of the test run, injected as a
 * {@link LocalAws} parameter of test methods, lifecycle methods and constructors.
 *
 * <pre>
 * &#64;LocalAwsTest(resetBeforeEach = true)
 * class QueueTest {
 *     &#64;Test void sends(LocalAws aws) { aws.sqs().createQueue(...); }
 * }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(LocalAwsExtension.class)
public @interface LocalAwsTest {

    /** Empty every queue, table and bucket before each test (milliseconds; nothing restarts). */
    boolean resetBeforeEach() default false;
}
