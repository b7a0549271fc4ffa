package dev.redrive.localrun.scenario;

import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.report.RunReport;

/** Something to run on the local system, reported phase by phase. */
public interface Scenario {

    void run(LocalSystem system, RunOptions options, Progress progress, RunReport report) throws Exception;

    static Scenario named(String name) {
        return switch (name) {
            case "incident" -> new IncidentScenario();
            case "duplicate-storm" -> new DuplicateStormScenario();
            case "poison" -> new PoisonScenario();
            case "basic" -> new BasicScenario();
            case "chaos" -> new ChaosScenario();
            default -> throw new IllegalArgumentException("unknown scenario " + name);
        };
    }
}
