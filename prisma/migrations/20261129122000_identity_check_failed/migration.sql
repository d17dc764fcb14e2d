-- An identity check whose provider found a person is not who the application says fails; the decision engine
-- declines the application (identity_unverified).
-- AlterEnum
ALTER TYPE "IdentityCheckStatus" ADD VALUE 'failed';
