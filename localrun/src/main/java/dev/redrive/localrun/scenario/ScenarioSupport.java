package dev.redrive.localrun.scenario;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localrun.lambda.SandboxExit;
import dev.redrive.localrun.report.RunReport;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** What every scenario needs: the queues, the status line, waiting, sweeping, and the closing figures. */
class ScenarioSupport {

    static final Duration PHASE_TIMEOUT = Duration.ofMinutes(6);

    final LocalSystem system;
    final Observer observer;
    final Progress progress;
    final RunReport report;
    final OrderTraffic traffic;
    final String emailQueue;
    final String revenueQueue;
    final String emailDlq;
    final String revenueDlq;

    ScenarioSupport(LocalSystem system, Progress progress, RunReport report) {
        this.system = system;
        this.observer = new Observer(system);
        this.progress = progress;
        this.report = report;
        this.traffic = new OrderTraffic(system.aws().sqs(), 20261129L);
        this.emailQueue = system.sourceQueueUrl(LocalSystem.EMAIL);
        this.revenueQueue = system.sourceQueueUrl(LocalSystem.REVENUE);
        this.emailDlq = system.deadLetterQueueUrl(LocalSystem.EMAIL);
        this.revenueDlq = system.deadLetterQueueUrl(LocalSystem.REVENUE);
    }

    /** The live status line: sent, processed, in DLQ, quarantined, replayed, archived. */
    String status() {
        List<QuarantineRecord> ledger = observer.ledger();
        Map<String, Integer> states = Observer.byState(ledger);
        long archived =
                ledger.stream().filter(QuarantineRecord::archivedToStore).count();
        return String.format(
                Locale.ROOT,
                "sent %d | processed email %d, revenue %d | in DLQ %d | quarantined %d "
                        + "| replayed %d | archived %d%s",
                traffic.deliveries(),
                observer.completed(LocalSystem.EMAIL),
                observer.completed(LocalSystem.REVENUE),
                observer.depth(emailDlq) + observer.depth(revenueDlq),
                ledger.size(),
                states.getOrDefault("REPLAYED", 0),
                archived,
                system.mailProviderRefusals() > 0 ? " | provider refusals " + system.mailProviderRefusals() : "");
    }

    void await(String what, Supplier<Boolean> done) throws InterruptedException {
        progress.await(what, PHASE_TIMEOUT, this::status, () -> {
            system.failIfBroken();
            return done.get();
        });
    }

    /** Invokes the sweeper now (as its schedule would) and returns its answer, for the story. */
    String sweep() throws InterruptedException {
        InvocationResult r = system.sweepNow();
        if (r instanceof InvocationResult.Response response) {
            return response.body();
        }
        return r.toString();
    }

    long ledgerCount(String consumer) {
        return observer.ledger().stream()
                .filter(r -> r.consumer().equals(consumer))
                .count();
    }

    /** The closing figures every scenario reports. */
    void closingFigures() {
        report.put("api calls by function (through counting proxies)", system.apiCalls());
        report.put("lambda runtime", system.runtimeFigures());
        report.put(
                "sandboxes that ended by themselves",
                system.sandboxExits().stream().map(SandboxExit::toMap).toList());
        report.put("mail provider refusals during the outage", system.mailProviderRefusals());
        report.put("archive objects (S3 keys)", observer.archiveObjects());
    }
}
