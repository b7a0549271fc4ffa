package dev.redrive.console.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.console.internal.RunJournal.Guarded;
import dev.redrive.console.internal.RunJournal.Kind;
import dev.redrive.console.internal.RunJournal.Line;
import dev.redrive.console.internal.RunJournal.Phase;
import dev.redrive.console.internal.RunJournal.Run;
import dev.redrive.core.failure.FailureClass;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file run journal keeps a run whole across processes, cuts a torn last outcome, and names what it cannot read. */
class FileRunJournalTest {

    @TempDir
    Path dir;

    static Run run(String id, Phase phase) {
        return new Run(
                id,
                Kind.REPLAY,
                "the group Timeout: Timeout from the provider (unresolved)",
                "/groups",
                "2026-11-29T12:00:00Z",
                "alice",
                List.of("q-1", "q-2", "q-3"),
                List.of(new Line("q-1", "SENT", "would send to orders"), new Line("q-2", "REFUSED", "would refuse")),
                List.of(new Guarded("q-3", "POISON", "Crashed: it crashed")),
                phase,
                "provider fixed",
                "alice",
                "2026-11-29T12:01:00Z",
                List.of(FailureClass.POISON),
                List.of("bob at 2026-11-29T13:00:00Z"),
                "",
                "2026-11-29T12:01:00Z");
    }

    @Test
    void aRunAndItsOutcomesAreReadBackByAnotherJournalOnTheSameDirectory() {
        Path state = dir.resolve("state").resolve("console");
        FileRunJournal journal = new FileRunJournal(state);
        Run first = run("run-20261129-120000-0000000a", Phase.RUNNING);
        journal.save(first);
        journal.append(first.id(), new Line("q-1", "SENT", "sent to orders"));
        journal.save(run("run-20261129-120000-0000000a", Phase.STOPPED));
        journal.append(first.id(), new Line("q-2", "REFUSED", "refused and archived"));
        journal.close();

        List<RunJournal.Stored> read;
        try (FileRunJournal again = new FileRunJournal(state)) {
            read = again.load();
        }

        assertThat(read).singleElement().satisfies(s -> {
            assertThat(s.run()).isEqualTo(run("run-20261129-120000-0000000a", Phase.STOPPED));
            assertThat(s.outcomes())
                    .containsExactly(
                            new Line("q-1", "SENT", "sent to orders"),
                            new Line("q-2", "REFUSED", "refused and archived"));
        });
        assertThat(state.resolve("run-20261129-120000-0000000a.json.tmp")).doesNotExist();
    }

    @Test
    void aTornLastOutcomeIsCutOffAndTheJournalGoesOnFromThere() throws Exception {
        FileRunJournal journal = new FileRunJournal(dir);
        Run r = run("run-20261129-120000-0000000b", Phase.RUNNING);
        journal.save(r);
        journal.append(r.id(), new Line("q-1", "SENT", "sent"));
        Path outcomes = dir.resolve(r.id() + ".outcomes");
        Files.writeString(outcomes, "{\"id\":\"q-2\",\"outc", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertThat(journal.load().get(0).outcomes()).containsExactly(new Line("q-1", "SENT", "sent"));
        journal.append(r.id(), new Line("q-2", "SENT", "sent"));
        journal.close();

        try (FileRunJournal again = new FileRunJournal(dir)) {
            assertThat(again.load().get(0).outcomes())
                    .containsExactly(new Line("q-1", "SENT", "sent"), new Line("q-2", "SENT", "sent"));
        }
    }

    @Test
    void oneConsoleAtATimeUsesADirectory() {
        FileRunJournal first = new FileRunJournal(dir);

        assertThatThrownBy(() -> new FileRunJournal(dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("another redrive console uses the state directory " + dir
                        + " (its bulk runs): stop it, or give this one another --state-dir");

        first.close();
        new FileRunJournal(dir).close();
    }

    @Test
    void anUnreadableRunIsNamedWithWhatToDo() throws Exception {
        Files.writeString(dir.resolve("run-20261129-120000-0000000c.json"), "{not json");

        FileRunJournal journal = new FileRunJournal(dir);
        assertThatThrownBy(journal::load)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(
                        "the bulk run file " + dir.resolve("run-20261129-120000-0000000c.json") + " cannot be read")
                .hasMessageEndingWith("move it out of " + dir + " to start the console without it");
        journal.close();
    }

    @Test
    void aRunIdThatIsNotOneNeverBecomesAPath() {
        FileRunJournal journal = new FileRunJournal(dir);

        assertThatThrownBy(() -> journal.append("../../etc/passwd", new Line("q", "SENT", "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a bulk run id: '../../etc/passwd'");
        journal.close();
    }
}
