/**
 * The console's insides: the session and request guard, the page handlers and the views the templates render. Not an
 * API: only {@link dev.redrive.console.ConsoleServer} and its options are.
 */
package dev.redrive.console.internal;
