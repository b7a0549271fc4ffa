@echo off
rem redrive: Redrive's operator CLI on Windows (see ..\README.md). Runs the CLI in ..\lib with %JAVA_HOME%\bin\java.exe,
rem else the java on the PATH (Java 17 or later), passing %JAVA_OPTS% and %REDRIVE_CLI_OPTS% to the JVM and every
rem argument to the CLI; exits with the CLI's exit code.
setlocal
set "REDRIVE_HOME=%~dp0.."
if defined JAVA_HOME (set "REDRIVE_JAVA=%JAVA_HOME%\bin\java.exe") else (set "REDRIVE_JAVA=java.exe")
"%REDRIVE_JAVA%" %JAVA_OPTS% %REDRIVE_CLI_OPTS% -cp "%REDRIVE_HOME%\lib\*" dev.redrive.cli.RedriveCli %*
exit /b %ERRORLEVEL%
