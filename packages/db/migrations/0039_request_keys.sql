CREATE TABLE "request_keys" (
	"usr_id" integer NOT NULL,
	"key" varchar(100) NOT NULL,
	"request" varchar(300) NOT NULL,
	"answer" jsonb,
	"created_timestamp" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_keys_usr_id_key_pk" PRIMARY KEY("usr_id","key")
);
--> statement-breakpoint
ALTER TABLE "request_keys" ADD CONSTRAINT "request_keys_usr_id_users_id_fk" FOREIGN KEY ("usr_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_keys_created_idx" ON "request_keys" USING btree ("created_timestamp");