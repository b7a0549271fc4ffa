package dev.redrive.core.sweeper;

class InMemoryDeadLetterNotesTest extends DeadLetterNotesContract {
    @Override
    protected DeadLetterNotes newNotes() {
        return new InMemoryDeadLetterNotes();
    }
}
