package dev.redrive.localrun;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that starts the whole local system (the packaged functions as sandboxes on local AWS) and mostly waits on it:
 * redeliveries, schedules, leases. The build runs these in test JVMs of their own, several at once, after the module's
 * other tests ({@code tooling/localrun/pom.xml}, the {@code whole-system} execution).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(WholeSystemRun.TAG)
public @interface WholeSystemRun {

    /** The JUnit tag the build selects these tests by. */
    String TAG = "whole-system";
}
