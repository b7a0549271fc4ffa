package com.example.quickstart.infra;

import software.amazon.awscdk.App;

/** The CDK app ({@code cdk.json}: {@code ../mvnw -q compile exec:java}): one stack, {@code RedriveQuickstart}. */
public final class QuickstartApp {
    private QuickstartApp() {}

    public static void main(String[] args) {
        App app = new App();
        new QuickstartStack(app, "RedriveQuickstart");
        app.synth();
    }
}
