package dev.redrive.core.sweeper;

import dev.redrive.testing.sweeper.DeadLetterNotesContract;
import dev.redrive.testing.sweeper.InMemoryDeadLetterNotes;

class InMemoryDeadLetterNotesTest extends DeadLetterNotesContract {
    @Override
    protected DeadLetterNotes newNotes() {
        return new InMemoryDeadLetterNotes();
    }
}
