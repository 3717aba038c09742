CREATE TABLE "integration_connections" (
	"organization_id" text NOT NULL,
	"service_name" text NOT NULL,
	"access_token" jsonb NOT NULL,
	"refresh_token" jsonb,
	"expires_at" timestamp with time zone,
	"scopes" jsonb NOT NULL,
	"needs_reconnect" boolean DEFAULT false NOT NULL,
	"connected_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_connections_organization_id_service_name_pk" PRIMARY KEY("organization_id","service_name")
);
--> statement-breakpoint
CREATE TABLE "integration_definitions" (
	"service_name" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" jsonb NOT NULL,
	"auth_url" text NOT NULL,
	"token_url" text NOT NULL,
	"revoke_url" text,
	"scopes" jsonb NOT NULL,
	"additional_params" jsonb NOT NULL,
	"preset" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"service_name" text NOT NULL,
	"code_verifier" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_service_name_integration_definitions_service_name_fk" FOREIGN KEY ("service_name") REFERENCES "public"."integration_definitions"("service_name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_connected_by_user_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_service_name_integration_definitions_service_name_fk" FOREIGN KEY ("service_name") REFERENCES "public"."integration_definitions"("service_name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_states_expires_at" ON "oauth_states" USING btree ("expires_at");