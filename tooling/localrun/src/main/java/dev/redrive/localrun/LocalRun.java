package dev.redrive.localrun;

import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.Scenario;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/redrive-local}: the whole system on this machine, one scenario, one report. Exit code 0 when every
 * check passed, 1 when one failed, 2 when the run could not be set up (the message says what is missing). Once local
 * AWS is up it prints the settings to paste for the CLI, the console and the AWS CLI ({@link OperatorSettings});
 * with {@code --keep-running} the system stays up after the report until Ctrl-C or SIGTERM.
 */
public final class LocalRun {

    /** The line {@code --keep-running} prints once the scenario and its report are done and the system stays up. */
    public static final String KEEPING_RUNNING = "redrive-local: the system keeps running";

    private LocalRun() {}

    /**
     * Keeps the system up after the scenario (its pollers and schedules go on working) until the process is asked to
     * stop: Ctrl-C or SIGTERM run the shutdown hook, which closes the system (local AWS, the sandboxes, the pollers),
     * and the process ends with the signal's status. Prints the settings again and how to stop.
     */
    private static void keepRunning(PrintStream out, String settings, int exit) {
        out.print(settings);
        out.println(KEEPING_RUNNING + " (local AWS, the functions, their pollers and the schedules; the scenario "
                + (exit == 0 ? "passed" : "failed, exit " + exit) + "). Stop it with Ctrl-C, or: kill -TERM "
                + ProcessHandle.current().pid());
        out.flush();
        try {
            new CountDownLatch(1).await(); // until the shutdown hook's close and the JVM's end
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

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
        String settings = OperatorSettings.of(system).block();
        progress.text(settings);
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
        if (options.keepRunning()) {
            keepRunning(out, settings, exit);
        }
        out.flush();
        System.exit(exit);
    }
}
