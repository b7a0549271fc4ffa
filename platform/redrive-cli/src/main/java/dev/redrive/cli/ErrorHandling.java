package dev.redrive.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import software.amazon.awssdk.core.exception.SdkException;

/** One line on stderr and an exit code for every failure; never a stack trace. */
final class ErrorHandling {

    private ErrorHandling() {}

    /** Bad arguments picocli found (unknown option, bad enum value, missing parameter): exit 2. */
    static int onBadArguments(ParameterException e, String[] args) {
        CommandLine line = e.getCommandLine();
        String name = line.getCommandSpec().qualifiedName(" ");
        line.getErr().println(name + ": " + AwsErrors.oneLine(e) + " (see '" + name + " --help')");
        line.getErr().flush();
        return ExitCodes.USAGE;
    }

    /** A failure while a command ran. */
    static int onFailure(Exception e, CommandLine line, RedriveCli root) {
        PrintWriter err = line.getErr();
        String name = line.getCommandSpec().qualifiedName(" ");
        int code;
        if (e instanceof CliException c) {
            err.println(name + ": " + c.getMessage());
            code = c.exitCode();
        } else if (e instanceof SdkException s) {
            err.println(name + ": " + describe(root, s));
            code = ExitCodes.CONFIG;
        } else {
            err.println(name + ": unexpected " + e.getClass().getSimpleName() + ": " + AwsErrors.oneLine(e));
            code = ExitCodes.INTERNAL;
        }
        err.flush();
        return code;
    }

    private static String describe(RedriveCli root, SdkException e) {
        try {
            return root.describe(e);
        } catch (CliException settingsBroken) {
            return AwsErrors.oneLine(e);
        }
    }
}
