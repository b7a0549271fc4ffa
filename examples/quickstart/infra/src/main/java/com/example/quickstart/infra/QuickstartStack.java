package com.example.quickstart.infra;

import dev.redrive.cdk.RedrivePlatform;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;

/** A team's stack with Redrive added: the platform, and both consumers attached to their existing queue and function. */
public class QuickstartStack extends Stack {
    public QuickstartStack(Construct scope, String id) {
        super(scope, id);
        TeamResources team = new TeamResources(this, "Team"); // what the team had before Redrive
        RedrivePlatform.Builder.create(this, "Redrive")
                .consumer("receipts", team.receiptsQueue(), team.receipts(), "OrderPlaced")
                .consumer("revenue", team.revenueQueue(), team.revenue(), "OrderPlaced")
                .build();
    }
}
