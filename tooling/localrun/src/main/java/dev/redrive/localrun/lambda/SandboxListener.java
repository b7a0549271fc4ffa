package dev.redrive.localrun.lambda;

/** What the local Lambda service tells about a sandbox as it works (fault injection listens here). */
public interface SandboxListener {

    SandboxListener NONE = sandbox -> {};

    /** The sandbox has just taken an event from its Runtime API ({@code next} returned it). */
    void eventTaken(FunctionInstance sandbox);
}
