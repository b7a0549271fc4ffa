/**
 * Not API: the emulators behind {@link dev.redrive.testing.localaws.LocalAws} (ElasticMQ embedded, moto's server behind
 * Redrive's serializing launcher). Public only for {@code LocalAws} and for the tests of moto's launcher in
 * {@code tooling/localstack}; use {@code LocalAws} instead.
 */
package dev.redrive.testing.localaws.internal;
