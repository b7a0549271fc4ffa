package dev.redrive.localrun;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Synthesizes, in one JVM, every stack this module's tests synthesize ({@link LocalRunFixture#synthesized}): the build
 * runs it before the tests (the {@code synthesize-test-stacks} step of {@code tooling/localrun/pom.xml}), so that
 * jsii's node process starts once for all of them instead of once in each test JVM that needs a stack, as the tests
 * start side by side. A stack missing here is not an error: the test that needs it synthesizes it itself.
 */
public final class SynthesizedStacks {

    private SynthesizedStacks() {}

    /** The contexts of the stacks the tests ask for, in the order they start (the longest runs first). */
    static List<Map<String, Object>> contexts() {
        List<Map<String, Object>> contexts = new ArrayList<>();
        // dev.redrive.cli.LocalRunPracticeTest
        contexts.add(LocalRunFixture.localStackContext(false, LocalRunFixture.incidentOverrides()));
        // CdkSettingsDriveLocalAwsTest
        for (int maxReceives : CdkSettingsDriveLocalAwsTest.MAX_RECEIVES) {
            contexts.add(CdkSettingsDriveLocalAwsTest.context(maxReceives));
        }
        // FixedSeedChaosRunTest
        contexts.add(LocalRunFixture.localStackContext(true, Map.of()));
        return contexts;
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        List<Map<String, Object>> contexts = contexts();
        for (Map<String, Object> context : contexts) {
            LocalRunFixture.synthesized(context);
        }
        System.out.printf(
                "redrive: %d stacks for the local run's tests synthesized in one JVM in %d ms, into %s%n",
                contexts.size(), (System.nanoTime() - t0) / 1_000_000, LocalRunFixture.SYNTHESIZED);
        // Ends the JVM as soon as the stacks are written, whatever threads jsii's runtime keeps.
        System.exit(0);
    }
}
