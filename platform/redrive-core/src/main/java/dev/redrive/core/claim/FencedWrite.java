package dev.redrive.core.claim;

/** The result of a write that is conditional on holding the fencing token. */
public enum FencedWrite {
    /** The token still held the claim; the write took effect. */
    APPLIED,
    /** The claim was taken over (or already finished) by another token; nothing was written. */
    FENCED_OUT;

    public boolean applied() {
        return this == APPLIED;
    }
}
