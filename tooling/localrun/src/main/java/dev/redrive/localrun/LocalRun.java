package dev.redrive.localrun;

import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.Scenario;
import java.io.IOException;
import java.io.PrintStream;

/**
 * {@code bin/redrive-local}: the whole system on this machine, one scenario, one report. Exit code 0 when every
 * check passed, 1 when one failed, 2 when the run could not be set up (the message says what is missing).
 */
public final class LocalRun {

    private LocalRun() {}

    public static void main(String[] args) {
        PrintStream out = System.out;
        RunOptions options;
        try {
            options = RunOptions.parse(args);
        } catch (RunOptions.UsageException e) {
            if (e.getMessage() != null) {
                System.err.println("redrive-local: " + e.getMessage());
            }
            System.err.print(RunOptions.USAGE);
            System.exit(e.getMessage() == null ? 0 : 2);
            return;
        }
        Progress progress = new Progress(out);
        RunReport report = new RunReport(options.scenario());
        LocalSystem system;
        try {
            system = LocalSystem.start(options, progress);
        } catch (Exception e) {
            System.err.println("redrive-local: could not start the local system: " + e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(system::close, "redrive-local-shutdown"));
        int exit;
        try {
            progress.step("running the " + options.scenario() + " scenario");
            Scenario.named(options.scenario()).run(system, options, progress, report);
            exit = report.passed() ? 0 : 1;
        } catch (Exception e) {
            report.tell("the run stopped: " + e.getMessage());
            report.check("the scenario ran to the end", false);
            exit = 1;
        }
        report.print(out);
        if (options.report().isPresent()) {
            try {
                report.writeJson(options.report().get());
                out.println("JSON report: " + options.report().get().toAbsolutePath());
            } catch (IOException e) {
                System.err.println("redrive-local: could not write the report: " + e.getMessage());
                exit = 2;
            }
        }
        out.println("Function logs: " + LocalSystem.logs(options).toAbsolutePath());
        out.flush();
        System.exit(exit);
    }
}
