package dev.redrive.core.quarantine;

import java.util.Objects;

/** Who made a decision: the automation, or a named person. Every transition is attributed to one. */
public record Actor(String name) {

    public static final Actor AUTOMATION = new Actor("automation");

    public Actor {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("an actor needs a name");
        }
        if (name.length() > 200) {
            throw new IllegalArgumentException("actor name longer than 200 characters");
        }
    }

    public static Actor person(String name) {
        if ("automation".equals(name)) {
            throw new IllegalArgumentException("'automation' is reserved for the sweeper");
        }
        return new Actor(name);
    }

    public boolean automated() {
        return this.equals(AUTOMATION);
    }

    @Override
    public String toString() {
        return name;
    }
}
