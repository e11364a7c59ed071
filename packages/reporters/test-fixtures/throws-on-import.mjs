throw new Error('broken module');
