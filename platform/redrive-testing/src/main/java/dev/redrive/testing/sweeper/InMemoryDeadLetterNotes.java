package dev.redrive.testing.sweeper;

import dev.redrive.core.sweeper.ArrivedDeadLetter.AttachedFailure;
import dev.redrive.core.sweeper.DeadLetterNotes;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The in-memory fake of the dead-letter notes: kept until they expire, a later note replacing an earlier one. */
public final class InMemoryDeadLetterNotes implements DeadLetterNotes {

    private record Kept(AttachedFailure failure, Instant expiresAt) {}

    private final Map<NoteKey, Kept> notes = new HashMap<>();

    @Override
    public synchronized void keep(NoteKey key, AttachedFailure failure, Instant expiresAt) {
        notes.put(key, new Kept(failure, expiresAt));
    }

    @Override
    public synchronized Optional<AttachedFailure> find(NoteKey key, Instant now) {
        Kept kept = notes.get(key);
        return kept == null || !kept.expiresAt().isAfter(now) ? Optional.empty() : Optional.of(kept.failure());
    }

    public synchronized int size() {
        return notes.size();
    }
}
